import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import {
  BENCH_MEDIA,
  MediaDescriptorError,
  createMediaStore,
  expectedSize,
  mediaKeyOf,
  type MediaDescriptor,
} from './media-store';
import { voiceOverSeconds } from './synth';

const root = mkdtempSync(join(tmpdir(), 'takedesk-media-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = (): string => join(root, `store-${++n}`);
const sha = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

const voice: MediaDescriptor = {
  kind: 'voice',
  seed: 'd1:v1',
  words: 12,
  genderAndAge: 'teenageBoy',
  format: 'wav',
};

describe('media store', () => {
  it('keys are stable, ignore key order and undefined fields, and differ per descriptor', () => {
    expect(mediaKeyOf(voice)).toMatch(/^[0-9a-f]{32}$/);
    expect(
      mediaKeyOf({
        format: 'wav',
        genderAndAge: 'teenageBoy',
        words: 12,
        seed: 'd1:v1',
        kind: 'voice',
        text: undefined,
      }),
    ).toBe(mediaKeyOf(voice));
    expect(mediaKeyOf({ ...voice, format: 'mp3' })).not.toBe(mediaKeyOf(voice));
    expect(mediaKeyOf({ ...voice, seed: 'd1:v2' })).not.toBe(mediaKeyOf(voice));
  });

  it('rejects descriptors it cannot make', () => {
    expect(() => mediaKeyOf({ kind: 'voice', seed: 'x', format: 'pdf', words: 3 })).toThrow(
      MediaDescriptorError,
    );
    expect(() => mediaKeyOf({ kind: 'script-pdf', seed: 'x', format: 'wav' })).toThrow(MediaDescriptorError);
    expect(() => mediaKeyOf({ kind: 'post', seed: 'x', format: 'wav' })).toThrow(/seconds/);
    expect(() => mediaKeyOf({ kind: 'voice', seed: 'x', format: 'wav' })).toThrow(/words/);
    expect(() => mediaKeyOf({ kind: 'post', seed: 'x', format: 'wav', seconds: -1 })).toThrow(
      MediaDescriptorError,
    );
    expect(() => mediaKeyOf({ kind: 'post', seed: 'x', format: 'wav', seconds: 10, channels: 3 })).toThrow(
      MediaDescriptorError,
    );
  });

  it('same descriptor gives the same bytes (sha256) across stores', async () => {
    const a = await createMediaStore({ dir: freshDir() }).ensure(voice);
    const b = await createMediaStore({ dir: freshDir() }).ensure(voice);
    expect(sha(a.path)).toBe(sha(b.path));
    expect(a.etag).toBe(`"${a.key}-${a.size}"`);
    expect(a.etag).toBe(b.etag);
    expect(a.contentType).toBe('audio/wav');
    expect(statSync(a.path).size).toBe(a.size);
    expect(a.size).toBe(expectedSize(voice));
    // 12 words at 150 wpm + head and tail, mono 24-bit.
    expect(a.size).toBe(44 + Math.round(voiceOverSeconds(12) * 48_000) * 3);
  });

  it('generates once under 10 concurrent ensure() calls, leaving no temp files', async () => {
    const dir = freshDir();
    const store = createMediaStore({ dir });
    const desc: MediaDescriptor = { kind: 'post', seed: 'p', seconds: 5, format: 'mp3' };
    const results = await Promise.all(Array.from({ length: 10 }, () => store.ensure(desc)));
    expect(new Set(results.map((r) => r.etag)).size).toBe(1);
    const mtime = statSync(results[0]!.path).mtimeMs;
    await store.ensure(desc);
    expect(statSync(results[0]!.path).mtimeMs).toBe(mtime);
    const files = readdirSync(dir).sort();
    expect(files).toEqual([`${results[0]!.key}.json`, `${results[0]!.key}.mp3`]);
    expect(results[0]!.contentType).toBe('audio/mpeg');
  });

  it('a new store on the same dir describes and serves keys handed out before', async () => {
    const dir = freshDir();
    const first = createMediaStore({ dir });
    const key = first.mediaKey({ kind: 'sample', seed: 'pro-1', genderAndAge: 'child', format: 'mp3' });
    const made = await first.ensure({
      kind: 'track',
      seed: 'track-20',
      style: 'casual',
      format: 'wav',
      seconds: 3,
    });
    const second = createMediaStore({ dir });
    expect(second.describe(key)).toMatchObject({
      kind: 'sample',
      seed: 'pro-1',
      seconds: 20,
      kbps: 96,
      channels: 1,
    });
    const again = await second.ensureKey(made.key);
    expect(again).toEqual(made);
    expect(second.describe('0'.repeat(32))).toBeUndefined();
    expect(second.describe('../../etc/passwd')).toBeUndefined();
    expect(await second.ensureKey('f'.repeat(32))).toBeUndefined();
  });

  it('makes script PDFs', async () => {
    const store = createMediaStore({ dir: freshDir() });
    const file = await store.ensure({
      kind: 'script-pdf',
      seed: 's',
      format: 'pdf',
      title: 'Summer',
      project: 'Ad',
      parts: [{ name: 'Script', text: 'Buy now.' }],
    });
    expect(file.contentType).toBe('application/pdf');
    const doc = await PDFDocument.load(readFileSync(file.path));
    expect(doc.getPageCount()).toBe(1);
  });

  it('makes the 600 s stereo 24-bit benchmark WAV fast enough', { timeout: 120_000 }, async () => {
    const store = createMediaStore({ dir: freshDir() });
    const started = performance.now();
    const file = await store.ensure(BENCH_MEDIA);
    const seconds = (performance.now() - started) / 1000;
    console.log(`600 s 48 kHz/24-bit stereo WAV (${file.size} bytes) generated in ${seconds.toFixed(2)} s`);
    expect(file.size).toBe(172_800_044);
    expect(statSync(file.path).size).toBe(172_800_044);
    // Generous: a few seconds on an idle machine, more on a loaded CI runner.
    expect(seconds).toBeLessThan(60);
    rmSync(file.path);
  });
});

describe('media store: a music track streamed the first time it is asked for', () => {
  const track: MediaDescriptor = {
    kind: 'track',
    seed: 'stream-1',
    style: 'pop',
    seconds: 6,
    channels: 2,
    format: 'mp3',
  };
  const finished = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.mp3'));

  it('sends its first bytes before the file is made, then leaves the whole file for the next request', async () => {
    const dir = freshDir();
    const store = createMediaStore({ dir });
    const stream = (await store.streamFirst(track))!;
    const reader = stream.getReader();
    const first = await reader.read();
    expect(first.value!.length).toBeGreaterThan(0);
    expect(finished(dir)).toEqual([]);
    let bytes = first.value!.length;
    for (let next = await reader.read(); !next.done; next = await reader.read()) bytes += next.value.length;
    const file = await store.ensure(track);
    expect(statSync(file.path).size).toBe(bytes);
    expect(await store.streamFirst(track)).toBeUndefined(); // made: later requests get the file, with ranges
  });

  it('stops encoding when its listener leaves and nobody else asked for it; the next request streams it again', async () => {
    const dir = freshDir();
    const store = createMediaStore({ dir });
    const left = (await store.streamFirst(track))!;
    const reader = left.getReader();
    await reader.read();
    await reader.cancel();
    // Nothing is finished, nothing half-made is left behind, and the next listener gets a stream of its own.
    await expect.poll(() => readdirSync(dir).filter((name) => name.includes('.mp3')).length).toBe(0);
    const again = (await store.streamFirst(track))!;
    expect(again).toBeInstanceOf(ReadableStream);
    await again.cancel();
  });

  it('finishes the file when a request wants it whole, even after the listener left', async () => {
    const dir = freshDir();
    const store = createMediaStore({ dir });
    const reader = (await store.streamFirst(track))!.getReader();
    await reader.read();
    const whole = store.ensure(track);
    await reader.cancel();
    const file = await whole;
    expect(statSync(file.path).size).toBeGreaterThan(50_000);
    expect(finished(dir)).toHaveLength(1);
  });
});
