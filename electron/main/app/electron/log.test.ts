import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLog, redact } from './log';

const JWT =
  'eyJhbGciOiJIUzUxMiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1MSIsInNjb3BlIjoicHJvamVjdHMifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
const OPAQUE = 'tk_live_9f8e7d6c5b4a3210';

describe('redact', () => {
  it.each([
    ['a bare JWT', `sign-in ok ${JWT}`],
    ['a JWT cut short in an error', `bad token eyJhbGciOiJIUzUxMiIs…`],
    ['an x-access-token header line', `x-access-token: ${OPAQUE}`],
    ['a header dump in JSON', `{"headers":{"x-access-token":"${OPAQUE}","accept":"application/json"}}`],
    ['a header dump in single quotes', `{ 'x-access-token': '${OPAQUE}' }`],
    ['a sign-in answer', `{"token":"${OPAQUE}"}`],
    ['a password in a body', `{"email":"a@b.c","password":"hunter2-hunter2"}`],
    ['a query parameter', `GET https://svc.example/x?access_token=${OPAQUE}&page=2`],
    ['an authorization header', `Authorization: Bearer ${OPAQUE}`],
    ['an accessToken key in an object', `{ accessToken: "${OPAQUE}" }`],
  ])('removes the credential from %s', (_name, text) => {
    const out = redact(text);
    expect(out).toContain('[redacted]');
    expect(out).not.toContain(OPAQUE);
    expect(out).not.toContain('eyJhbGciOiJIUzUxMiIs');
    expect(out).not.toContain('hunter2');
  });

  it('keeps the rest of the line readable', () => {
    expect(redact(`{"headers":{"x-access-token":"${OPAQUE}","accept":"application/json"}}`)).toBe(
      '{"headers":{"x-access-token":"[redacted]","accept":"application/json"}}',
    );
    expect(redact('download 3 of 7 done in 1.2 s')).toBe('download 3 of 7 done in 1.2 s');
  });

  it('removes an exact known secret that matches no pattern', () => {
    expect(redact(`the value was ${OPAQUE} here`, [OPAQUE])).toBe('the value was [redacted] here');
  });
});

describe('createLog', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'takedesk-log-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('rotates at the size cap, keeps at most maxFiles files, and no file ever holds a token', async () => {
    const logDir = join(dir, 'rotate');
    const log = createLog({ dir: logDir, maxBytes: 600, maxFiles: 3, now: () => new Date(0) });
    log.addSecret(OPAQUE);
    for (let i = 0; i < 60; i++) {
      log.info(`request ${i} x-access-token: ${OPAQUE}`);
      log.error(`failed ${i}`, new Error(`answer {"token":"${JWT}"} plain ${OPAQUE}`));
    }
    const files = (await readdir(logDir)).sort();
    expect(files).toEqual(['main.1.log', 'main.2.log', 'main.log']);
    let lines = 0;
    for (const file of files) {
      const text = await readFile(join(logDir, file), 'utf8');
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(600);
      expect(text).not.toContain(OPAQUE);
      expect(text).not.toContain('eyJ');
      lines += text.trim().split('\n').length;
    }
    expect(lines).toBeGreaterThan(2);
    const newest = await readFile(join(logDir, 'main.log'), 'utf8');
    expect(newest).toContain('failed 59');
    expect(newest).toMatch(/^1970-01-01T00:00:00.000Z (INFO|ERROR) /);
  });

  it('keeps a multi-line message on one line, and survives an unwritable folder', async () => {
    const log = createLog({ dir: join(dir, 'lines') });
    log.warn('first\nsecond');
    expect(await readFile(log.path, 'utf8')).toMatch(/WARN first ⏎ second\n$/);
    const broken = createLog({ dir: join(log.path, 'not-a-dir') });
    expect(() => broken.info('nowhere')).not.toThrow();
  });
});
