import { mkdtempSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_LIMITS } from '../../shared/api/validate-project';
import { MAX_BODY_BYTES } from './app';
import { normalizeDescriptor } from './media/media-store';
import { voiceOverSeconds } from './media/synth';
import { audioAdsServices, voiceOverService } from './sample-bodies';
import type { Sandbox } from './server';
import { audioAdsBody, call, startSandbox, voiceOverBody, type Loose } from './test-support/test-helpers';

// Issue 13 items 1 and 6: what delivery cannot make is refused at creation with a spec-shaped 422, and
// bodies are read up to a byte limit (chunked ones too) with a spec-shaped 413.

let sb: Sandbox;
let dataDir: string;
const stateFile = () => join(dataDir, 'sandbox-state.json');
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sbx-limits-'));
  sb = await startSandbox({ dataDir });
});
afterAll(() => sb.close());

function expectError(r: { status: number; body: Loose }, type: string, status: number, text?: string) {
  expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(status);
  expect(r.body).toEqual({ status, type, message: expect.any(String) });
  if (text) expect(r.body.message).toContain(text);
}

const adOf = (seconds: number) =>
  audioAdsBody({
    services: audioAdsServices().map((s) => ('seconds' in s ? { ...s, seconds } : s)),
  });

describe('bounds of a project (PROJECT_LIMITS)', () => {
  it('are what the media store can make: the longest ad and the voice of the longest script', () => {
    const at = (seconds: number) => () =>
      normalizeDescriptor({ kind: 'post', seed: 's', format: 'wav', seconds });
    expect(at(PROJECT_LIMITS.maxSeconds)).not.toThrow();
    expect(at(PROJECT_LIMITS.maxSeconds + 1)).toThrow();
    expect(voiceOverSeconds(PROJECT_LIMITS.maxScriptWords)).toBeLessThanOrEqual(PROJECT_LIMITS.maxSeconds);
  });

  it('an audio ad of 3601 seconds is refused by create and quote with SECONDS_WRONG_TYPE 422', async () => {
    const token = sb.tokens.full;
    const before = (await call(sb, 'GET', '/projects', { token })).body.total;
    expectError(
      await call(sb, 'POST', '/projects', { token, body: adOf(3601) }),
      'SECONDS_WRONG_TYPE',
      422,
      '3600',
    );
    const { title: _title, ...quote } = adOf(3601);
    expectError(await call(sb, 'POST', '/quote', { token, body: quote }), 'SECONDS_WRONG_TYPE', 422, '3600');
    expect((await call(sb, 'GET', '/projects', { token })).body.total).toBe(before);
  });

  it('an audio ad of exactly 3600 seconds is accepted and delivered', async () => {
    const token = sb.tokens.full;
    const created = await call(sb, 'POST', '/projects', { token, body: adOf(3600) });
    expect(created.status).toBe(200);
    expect(await sb.deliverNow(created.body.id)).toBe(1);
    const list = await call(sb, 'GET', `/deliverables/project/${created.body.id}`, { token });
    expect(list.body.map((d: Loose) => d.name).sort()).toEqual(['Final mix', 'Script', 'Voice over']);
    for (const d of list.body) expect(Object.keys(d.urls).length).toBeGreaterThan(0);
  });

  it('a huge services array is one SERVICE_NOT_ALLOWED 422 naming the limit', async () => {
    const services = Array.from({ length: 30_000 }, () => ({ subCategory: 'voice_over' }));
    const r = await call(sb, 'POST', '/projects', {
      token: sb.tokens.full,
      body: voiceOverBody({ services }),
    });
    expectError(r, 'SERVICE_NOT_ALLOWED', 422, `at most ${PROJECT_LIMITS.maxServices} services`);
  });

  it.each([
    ['parts', Array.from({ length: PROJECT_LIMITS.maxScriptParts + 1 }, (_, i) => `Part ${i}.`)],
    ['words', ['word '.repeat(PROJECT_LIMITS.maxScriptWords + 1)]],
  ])('a script over the %s bound is SCRIPT_WRONG_TYPE 422', async (bound, script) => {
    const body = voiceOverBody({ services: [voiceOverService(script)] });
    expectError(
      await call(sb, 'POST', '/projects', { token: sb.tokens.full, body }),
      'SCRIPT_WRONG_TYPE',
      422,
      bound,
    );
  });

  it('a script of exactly the word bound is accepted', async () => {
    const fits = voiceOverBody({
      services: [voiceOverService(['word '.repeat(PROJECT_LIMITS.maxScriptWords)])],
    });
    expect((await call(sb, 'POST', '/projects', { token: sb.tokens.full, body: fits })).status).toBe(200);
  });
});

/** Sends `chunks()` with Transfer-Encoding: chunked (no Content-Length), on a new connection; stops once answered. */
function sendChunked(
  method: string,
  path: string,
  token: string,
  chunks: () => Generator<Buffer>,
): Promise<{ status: number; body: Loose }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(`${sb.url}${path}`, {
      method,
      agent: false,
      headers: { 'content-type': 'application/json', 'x-access-token': token },
    });
    req.on('response', (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      res.on('error', reject);
    });
    // Once answered, the sandbox drops the rest of the body and may reset the connection: expected.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const it = chunks();
    const pump = () => {
      for (;;) {
        if (answered) return;
        const next = it.next();
        if (next.done) return void req.end();
        if (!req.write(next.value)) return void req.once('drain', pump);
      }
    };
    pump();
  });
}

describe('request body limit (MAX_BODY_BYTES)', () => {
  it('is 1 MiB', () => {
    expect(MAX_BODY_BYTES).toBe(1024 * 1024);
  });

  it('a chunked 32 MB create body (a 6-million-word script) is refused with BODY_TOO_LARGE 413; memory and state do not grow', async () => {
    const token = sb.tokens.full;
    await sb.deliverNow();
    const sizeBefore = statSync(stateFile()).size;
    const total = (await call(sb, 'GET', '/projects', { token })).body.total;
    const head = JSON.stringify(voiceOverBody({ services: [{ ...voiceOverService(), script: '@' }] }));
    const [before, after] = head.split('"@"') as [string, string];
    const words = Buffer.from('word '.repeat(13_000)); // 65 kB, sent 512 times
    const rssBefore = process.memoryUsage().rss;
    const r = await sendChunked('POST', '/projects', token, function* () {
      yield Buffer.from(`${before}"`);
      for (let i = 0; i < 512; i++) yield words;
      yield Buffer.from(`"${after}`);
    });
    expectError(r, 'BODY_TOO_LARGE', 413, '1 MiB');
    // The sandbox runs in this process: buffering the body (as before) would add its size several times.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(24 * 1024 * 1024);
    expect((await call(sb, 'GET', '/projects', { token })).body.total).toBe(total);
    // Any later write of the state would show the stored script; the sandbox answers normally.
    expect((await call(sb, 'POST', '/_sandbox/deliver', { token, body: {} })).status).toBe(200);
    expect(statSync(stateFile()).size).toBeLessThan(sizeBefore + 64 * 1024);
  });

  it('every route that reads a body counts chunked bytes (revision, cancel, control routes)', async () => {
    const token = sb.tokens.full;
    const big = function* () {
      yield Buffer.from('{"instructions":"');
      for (let i = 0; i < 40; i++) yield Buffer.alloc(32 * 1024, 'a');
      yield Buffer.from('"}');
    };
    const routes = [
      ['POST', '/revisions/some-id'],
      ['PUT', '/projects/some-id'],
      ['PUT', '/deliverables/some-id'],
      ['PUT', '/deliverables/project/some-id'],
      ['POST', '/quote'],
      ['POST', '/users/auth'],
      ['POST', '/_sandbox/deliver'],
      ['POST', '/_sandbox/faults'],
    ] as const;
    for (const [method, path] of routes) {
      expectError(await sendChunked(method, path, token, big), 'BODY_TOO_LARGE', 413);
    }
  });

  it('Content-Length: the limit itself is read, one byte more is refused', async () => {
    const token = sb.tokens.full;
    const body = JSON.stringify(voiceOverBody({ title: 'At the limit' }));
    const padded = body + ' '.repeat(MAX_BODY_BYTES - Buffer.byteLength(body));
    expect((await call(sb, 'POST', '/projects', { token, raw: padded })).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const r = await call(sb, 'POST', '/projects', { token, raw: `${padded} ` });
      expectError(r, 'BODY_TOO_LARGE', 413);
      // The unread rest makes the connection unusable: it is closed, and the next request takes a new one.
      expect(r.headers.get('connection')).toBe('close');
      expect((await call(sb, 'GET', '/projects', { token })).status).toBe(200);
    }
  });

  it('a chunked body under the limit is read as usual', async () => {
    const body = JSON.stringify(voiceOverBody({ title: 'Chunked' }));
    const r = await sendChunked('POST', '/projects', sb.tokens.full, function* () {
      for (let i = 0; i < body.length; i += 7) yield Buffer.from(body.slice(i, i + 7));
    });
    expect(r.status).toBe(200);
    expect(r.body.title).toBe('Chunked');
  });

  // Found by fuzz.test.ts: FORBIDDEN was answered before a 300 kB body was read, and node:http then
  // closed the keep-alive connection under the client's next request ("other side closed").
  it('an answer given before the body is looked at still reads it: the connection stays usable', async () => {
    const raw = JSON.stringify(voiceOverBody({ remarks: '語'.repeat(100_000) }));
    for (let i = 0; i < 3; i++) {
      expectError(await call(sb, 'POST', '/projects', { token: null, raw }), 'FORBIDDEN', 403);
      expectError(await call(sb, 'POST', '/quote', { token: null, raw }), 'FORBIDDEN', 403);
      expect((await call(sb, 'GET', '/projects', { token: sb.tokens.full })).status).toBe(200);
    }
  });
});
