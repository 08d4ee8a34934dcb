import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { audioSourceFor } from './media-store';
import { mp3Chunks, writeMp3File } from './mp3';
import { createMusicSource, createVoiceSource } from './synth';
import { ffmpegErrors, ffprobe } from './test-support/test-tools';

const dir = mkdtempSync(join(tmpdir(), 'takedesk-mp3-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('mp3', () => {
  it.each([
    ['mono voice at 96 kbps', 1, 96],
    ['stereo music at 128 kbps', 2, 128],
  ] as const)('%s decodes with ffmpeg to the same duration', async (_name, channels, kbps) => {
    const path = join(dir, `${channels}.mp3`);
    const src =
      channels === 1
        ? createVoiceSource({ seed: 'mp3', seconds: 6 })
        : createMusicSource({ seed: 'mp3', seconds: 6, channels: 2 });
    const size = await writeMp3File(path, src, { kbps });
    const bytes = readFileSync(path);
    expect(bytes.length).toBe(size);
    // CBR: about kbps * seconds / 8 bytes.
    expect(size).toBeGreaterThan(((kbps * 1000) / 8) * 6 * 0.9);
    expect(size).toBeLessThan(((kbps * 1000) / 8) * 6 * 1.1);
    expect(ffmpegErrors(path)).toBe('');
    expect(Math.abs(Number(ffprobe(path, 'format=duration')) - 6)).toBeLessThan(0.1);
    expect(ffprobe(path, 'stream=channels,sample_rate')).toBe(`48000,${channels}`);
  });

  it('is deterministic', async () => {
    const a = join(dir, 'a.mp3');
    const b = join(dir, 'b.mp3');
    await writeMp3File(a, createVoiceSource({ seed: 'same', seconds: 2 }));
    await writeMp3File(b, createVoiceSource({ seed: 'same', seconds: 2 }));
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
  });
});

describe('mp3 streaming', () => {
  it('yields its first bytes after a frame or two of work, and the same bytes as whole blocks gave', () => {
    const chunks = [
      ...mp3Chunks(
        audioSourceFor({
          kind: 'track',
          seed: 'cmp-1',
          style: 'pop',
          seconds: 7.3,
          channels: 2,
          format: 'mp3',
        }),
      ),
    ];
    // A whole block (16 frames) gave about 5.8 kB first; a listener now waits for far less.
    expect(chunks[0]!.length).toBeLessThan(2_000);
    const hash = createHash('sha256');
    for (const chunk of chunks) hash.update(chunk);
    // What the encoder gave when it was fed 16 frames at a time from the start.
    expect(hash.digest('hex').slice(0, 16)).toBe('5ee9ed7aa6cf9491');
  });
});
