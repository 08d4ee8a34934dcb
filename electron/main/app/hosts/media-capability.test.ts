import { describe, expect, it } from 'vitest';
import { createMediaSigner, MEDIA_CAPABILITY_TTL_MS } from './media-capability';

const key = Buffer.alloc(32, 7);
const capabilityOf = (url: string) => new URL(url, 'http://x').searchParams.get('c') ?? undefined;

describe('media capabilities', () => {
  it('signs a path with its expiry, and the capability opens that path', () => {
    const signer = createMediaSigner({ key, now: () => 1_000 });
    const url = signer.sign('/media/library/abc');
    expect(url).toMatch(
      new RegExp(`^/media/library/abc\\?c=${1_000 + MEDIA_CAPABILITY_TTL_MS}\\.[\\w-]{43}$`),
    );
    expect(signer.verify('/media/library/abc', capabilityOf(url))).toBe('ok');
  });

  it('lasts hours, then expires', () => {
    let now = 0;
    const signer = createMediaSigner({ key, now: () => now });
    const capability = capabilityOf(signer.sign('/media/remote/t'));
    now = 4 * 3_600_000;
    expect(signer.verify('/media/remote/t', capability)).toBe('ok');
    now = MEDIA_CAPABILITY_TTL_MS;
    expect(signer.verify('/media/remote/t', capability)).toBe('expired');
  });

  it('refuses another path, another key, a changed expiry or MAC, and none at all', () => {
    const signer = createMediaSigner({ key, now: () => 0 });
    const capability = capabilityOf(signer.sign('/media/library/abc'))!;
    const [expiry, mac] = capability.split('.') as [string, string];
    expect(signer.verify('/media/library/abd', capability)).toBe('invalid');
    expect(signer.verify('/media/remote/abc', capability)).toBe('invalid');
    expect(createMediaSigner({ key: Buffer.alloc(32, 8) }).verify('/media/library/abc', capability)).toBe(
      'invalid',
    );
    expect(signer.verify('/media/library/abc', `${Number(expiry) + 1}.${mac}`)).toBe('invalid');
    expect(signer.verify('/media/library/abc', `${expiry}.${mac.slice(0, -1)}A`)).not.toBe('ok');
    expect(signer.verify('/media/library/abc', `${expiry}.short`)).toBe('invalid');
    expect(signer.verify('/media/library/abc', undefined)).toBe('missing');
    expect(signer.verify('/media/library/abc', '')).toBe('missing');
  });

  it('makes a fresh key per signer, so a link from an earlier launch opens nothing', () => {
    const earlier = createMediaSigner();
    const capability = capabilityOf(earlier.sign('/media/library/abc'));
    expect(createMediaSigner().verify('/media/library/abc', capability)).toBe('invalid');
  });
});
