import { X509Certificate } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox } from './server';
import { call } from './test-support/test-helpers';
import { generateSandboxTls, persistedSandboxTls } from './tls';

// The sandbox's certificate and the clock: a clock set back (by hand, or by a time sync) must not leave every
// Sandbox call failing with CERT_NOT_YET_VALID until the clock catches up.

const DAY = 24 * 3600_000;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'takedesk-tls-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const validFrom = (pem: string) => Date.parse(new X509Certificate(pem).validFrom);

describe('sandbox TLS certificate', () => {
  it('is valid from a day before it was made', async () => {
    const now = new Date('2026-11-26T10:00:00Z');
    const { cert } = await generateSandboxTls(now);
    expect(validFrom(cert)).toBe(now.getTime() - DAY);
  });

  it('a saved certificate that is not valid yet is renewed, one still valid is kept', async () => {
    const made = new Date('2026-11-26T10:00:00Z');
    const first = await persistedSandboxTls(dir, made);
    // Two hours later: the same certificate.
    expect((await persistedSandboxTls(dir, new Date(made.getTime() + 2 * 3600_000))).cert).toBe(first.cert);
    // The clock set back past its notBefore: a new certificate, valid now, saved for the next start.
    const earlier = new Date(made.getTime() - 2 * DAY);
    const renewed = await persistedSandboxTls(dir, earlier);
    expect(renewed.cert).not.toBe(first.cert);
    expect(validFrom(renewed.cert)).toBeLessThanOrEqual(earlier.getTime());
    const saved = JSON.parse(await readFile(join(dir, 'sandbox-tls.json'), 'utf8')) as { cert: string };
    expect(saved.cert).toBe(renewed.cert);
  });

  it('a restarted HTTPS sandbox whose saved certificate is not valid yet answers calls (no CERT_NOT_YET_VALID)', async () => {
    // A certificate made "two days from now" stands for one made before the clock was set back.
    const future = await generateSandboxTls(new Date(Date.now() + 2 * DAY));
    expect(validFrom(future.cert)).toBeGreaterThan(Date.now());
    await writeFile(join(dir, 'sandbox-tls.json'), JSON.stringify(future), { mode: 0o600 });

    const sb = await createSandbox({ dataDir: dir, https: true, delivery: 'manual' });
    try {
      expect(sb.certificate).toBeDefined();
      expect(sb.certificate).not.toBe(future.cert);
      const answer = await call(sb, 'GET', '/projects', { token: sb.tokens.full });
      expect(answer.status).toBe(200);
    } finally {
      await sb.close();
    }
  });
});

describe('persistedSandboxTls and killed writes', () => {
  it('removes the temp files a killed write of the certificate left, and keeps the certificate (issue 24, item 8)', async () => {
    await writeFile(join(dir, 'sandbox-tls.json.3735928559'), '{"cert": "half a write');
    await writeFile(join(dir, 'notes.txt'), 'mine');
    const first = await persistedSandboxTls(dir);
    expect((await readdir(dir)).sort()).toEqual(['notes.txt', 'sandbox-tls.json']);
    expect(await persistedSandboxTls(dir)).toEqual(first);
  });
});
