import { randomBytes } from 'node:crypto';

/** A fresh nonce per page load: wavesurfer.js's shadow-DOM styles carry it (`cspNonce`). */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

export interface CspOptions {
  nonce: string;
  /** Where audio may stream from besides 'self' (Electron's media scheme). */
  mediaSources?: string[];
}

/**
 * The renderer's Content-Security-Policy, built from `default-src 'none'` (Electron security checklist §7).
 * `connect-src` is 'self' only: the renderer never reaches the service; main does.
 */
export function buildCsp({ nonce, mediaSources = [] }: CspOptions): string {
  const media = ["'self'", ...mediaSources].join(' ');
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    `media-src ${media}`,
    `connect-src 'self' ${mediaSources.join(' ')}`.trim(),
    "worker-src 'self' blob:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

/** Puts the nonce where the renderer reads it (`<meta name="csp-nonce">`) and on Vite's own style/link tags. */
export function injectNonce(html: string, nonce: string): string {
  const meta = `<meta name="csp-nonce" content="${nonce}">`;
  const withMeta = html.includes('name="csp-nonce"')
    ? html.replace(/<meta name="csp-nonce"[^>]*>/, meta)
    : html.replace(/<head>/i, `<head>\n    ${meta}`);
  return withMeta.replace(/<style(?![^>]*nonce=)/g, `<style nonce="${nonce}"`);
}
