import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Media capabilities for browser mode. An <audio> element (and wavesurfer.js behind it) cannot send the session
 * header, so each media URL carries its own proof instead: `?c=<expiry>.<hmac>`, an HMAC of the expiry and the
 * exact path under a key made at launch. It opens that one path until it expires, and nothing else; a new launch
 * makes a new key, so old links die with the session.
 */
export interface MediaSigner {
  /** `path` (a pathname, no query) with a capability for it: `/media/library/abc?c=1767225600000.<hmac>`. */
  sign(path: string): string;
  /** Whether `capability` (the `c` parameter) opens `path` now. */
  verify(path: string, capability: string | undefined): MediaCapabilityCheck;
}

export type MediaCapabilityCheck = 'ok' | 'missing' | 'invalid' | 'expired';

/** Long enough for a day's review in one tab; every new media URL the page asks for is signed afresh. */
export const MEDIA_CAPABILITY_TTL_MS = 12 * 3_600_000;

export function createMediaSigner(
  options: { key?: Buffer; ttlMs?: number; now?: () => number } = {},
): MediaSigner {
  const key = options.key ?? randomBytes(32);
  const ttl = options.ttlMs ?? MEDIA_CAPABILITY_TTL_MS;
  const now = options.now ?? Date.now;
  const mac = (expiry: string, path: string) =>
    createHmac('sha256', key).update(`${expiry}\n${path}`).digest('base64url');

  return {
    sign(path) {
      const expiry = String(now() + ttl);
      return `${path}?c=${expiry}.${mac(expiry, path)}`;
    },
    verify(path, capability) {
      if (!capability) return 'missing';
      const match = /^(\d{1,16})\.([\w-]{43})$/.exec(capability);
      if (!match) return 'invalid';
      const [, expiry, given] = match as unknown as [string, string, string];
      const expected = Buffer.from(mac(expiry, path));
      if (!timingSafeEqual(Buffer.from(given), expected)) return 'invalid';
      // Checked after the MAC, so a forged expiry reads as forged, not as merely late.
      return Number(expiry) > now() ? 'ok' : 'expired';
    },
  };
}
