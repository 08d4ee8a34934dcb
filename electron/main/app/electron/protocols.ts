import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { MediaResolver } from '../hosts/browser-host';
import { buildCsp, createNonce, injectNonce } from '../../security/csp';
import { APP_HOST, APP_ORIGIN, APP_SCHEME, MEDIA_SCHEME, type ElectronModule } from './types';

/**
 * Must run before `app.ready`: both schemes behave like https (secure context, fetch, streaming media). The media
 * scheme is another origin than the page (`app://takedesk`): without `corsEnabled` Chromium refuses wavesurfer's
 * `fetch()` of a take as cross-origin, and the waveform of a preview stays flat.
 */
export function registerSchemes(electron: Pick<ElectronModule, 'protocol'>): void {
  electron.protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
    {
      scheme: MEDIA_SCHEME,
      privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true, corsEnabled: true },
    },
  ]);
}

/** CORS answers of the media scheme: the app's page, and only it, may read media (Range is its one header). */
const MEDIA_CORS = {
  'Access-Control-Allow-Origin': APP_ORIGIN,
  'Access-Control-Allow-Methods': 'GET, HEAD',
  'Access-Control-Allow-Headers': 'Range',
  'Access-Control-Expose-Headers': 'Content-Length, Content-Range, Accept-Ranges',
  Vary: 'Origin',
};

/** The same answer with the media scheme's CORS headers (the body streams through untouched). */
export function withMediaCors(response: Response): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(MEDIA_CORS)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/** Serves the built renderer at app://takedesk/ (a real origin for CSP and sender checks) and the media route. */
export function handleProtocols(
  electron: Pick<ElectronModule, 'protocol'>,
  options: {
    rendererDir: string;
    media: MediaResolver;
    /** `takedesk-media://smoke/…`: only while the packaged app checks itself (`--smoke-test`). */
    smoke?: (request: Request) => Promise<Response>;
  },
): void {
  electron.protocol.handle(APP_SCHEME, (request) => serveRenderer(request, options.rendererDir));
  electron.protocol.handle(MEDIA_SCHEME, async (request) => {
    if (request.method === 'OPTIONS') return withMediaCors(new Response(null, { status: 204 }));
    return withMediaCors(await serveMedia(request, options));
  });
}

function serveMedia(
  request: Request,
  options: { media: MediaResolver; smoke?: (request: Request) => Promise<Response> },
): Promise<Response> | Response {
  const url = new URL(request.url);
  const id = decodePath(url.pathname.replace(/^\//, ''));
  if (id === null) return new Response('Bad request', { status: 400 });
  if (url.host === 'library') return options.media.library(id, request);
  if (url.host === 'remote') return options.media.remote(id, request);
  if (url.host === 'smoke' && options.smoke) return options.smoke(request);
  return new Response('Not found', { status: 404 });
}

export async function serveRenderer(request: Request, rendererDir: string): Promise<Response> {
  const url = new URL(request.url);
  if (url.host !== APP_HOST) return new Response('Not found', { status: 404 });
  const relative = decodePath(url.pathname === '/' ? '/index.html' : url.pathname);
  if (relative === null) return new Response('Not found', { status: 404 });
  const path = normalize(join(rendererDir, relative));
  if (!path.startsWith(normalize(rendererDir) + sep)) return new Response('Not found', { status: 404 });
  const ext = extname(path);
  try {
    if (ext === '.html') {
      const nonce = createNonce();
      const html = injectNonce(await readFile(path, 'utf8'), nonce);
      return new Response(html, {
        headers: {
          'Content-Type': TYPES['.html']!,
          'Content-Security-Policy': buildCsp({ nonce, mediaSources: [`${MEDIA_SCHEME}:`] }),
          'X-Content-Type-Options': 'nosniff',
        },
      });
    }
    return new Response(await readFile(path), {
      headers: {
        'Content-Type': (Object.hasOwn(TYPES, ext) && TYPES[ext]) || 'application/octet-stream',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  } catch {
    return new Response('Not found', { status: 404 });
  }
}

/** A percent-decoded path, or null for a malformed escape (an encoded surrogate among them), never a URIError. */
function decodePath(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}
