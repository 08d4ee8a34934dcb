/**
 * URL decisions made in main (Electron security checklist §12-§14): what the window may navigate to, and what may
 * be handed to the OS browser. Pure functions, table-tested.
 */

/** True when `url` is inside the app itself (same scheme, host and port as the app origin). */
export function isAppUrl(url: string, appOrigin: string): boolean {
  const parsed = safeParse(url);
  return parsed !== null && parsed.host !== '' && originOf(parsed) === appOrigin;
}

/** `scheme://host[:port]`, also for custom schemes whose WHATWG origin is opaque outside Electron. */
export function originOf(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

/**
 * External links open in the OS browser only when they are plain http(s) to a public-looking host, with no
 * credentials embedded: never file:, javascript:, custom schemes, or loopback/private addresses (our own bridge
 * and local services must not be reachable from a link).
 */
export function isSafeExternalUrl(url: string): boolean {
  const parsed = safeParse(url);
  if (!parsed) return false;
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  if (parsed.username || parsed.password) return false;
  const host = parsed.hostname.toLowerCase();
  if (!host || isLocalHost(host)) return false;
  return true;
}

/** Loopback, link-local, private ranges and bare names (no dot) are local. */
export function isLocalHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local')) return true;
  if (h === '::1' || h === '::' || h.startsWith('fe80:') || h.startsWith('fc') || h.startsWith('fd')) {
    return h.includes(':');
  }
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 127 ||
      a === 10 ||
      a === 0 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168)
    );
  }
  return !h.includes('.');
}

function safeParse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}
