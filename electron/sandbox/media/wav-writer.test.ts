import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createVoiceSource, voiceOverSeconds, type AudioSource } from './synth';
import { ffmpegErrors, ffprobe, has } from './test-support/test-tools';
import { encodePcm, wavChunks, wavFileBytes, wavHeader, writeWavFile } from './wav-writer';

const dir = mkdtempSync(join(tmpdir(), 'takedesk-wav-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A source of constant value, for exact byte checks. */
function constant(value: number, frames: number, channels: number): AudioSource {
  let done = 0;
  return {
    sampleRate: 48_000,
    channels,
    frames,
    read(out) {
      const n = Math.min(out[0]!.length, frames - done);
      for (const c of out) c.fill(value, 0, n);
      done += n;
      return n;
    },
  };
}

describe('wav writer', () => {
  it.each([
    [48_000, 2, 24, 288_044],
    [48_000, 1, 16, 96_044],
    [3, 1, 24, 44 + 9 + 1], // odd data chunk gets its pad byte
    [600 * 48_000, 2, 24, 172_800_044],
  ] as const)('%i frames x %i ch x %i bit is %i bytes', (frames, channels, bitDepth, size) => {
    expect(wavFileBytes(frames, { sampleRate: 48_000, channels, bitDepth })).toBe(size);
  });

  it('header fields match the sizes', () => {
    const h = wavHeader(1000, { sampleRate: 48_000, channels: 2, bitDepth: 24 });
    expect(h.toString('ascii', 0, 4)).toBe('RIFF');
    expect(h.readUInt32LE(4)).toBe(wavFileBytes(1000, { sampleRate: 48_000, channels: 2, bitDepth: 24 }) - 8);
    expect(h.readUInt16LE(22)).toBe(2);
    expect(h.readUInt32LE(24)).toBe(48_000);
    expect(h.readUInt32LE(28)).toBe(48_000 * 6);
    expect(h.readUInt16LE(34)).toBe(24);
    expect(h.readUInt32LE(40)).toBe(6000);
  });

  it('encodes full scale, negatives and clipping exactly', () => {
    const { buffer } = encodePcm([Float32Array.from([1, -1, 0, 2, -0.5])], 5, 24);
    expect([...buffer]).toEqual([
      0xff, 0xff, 0x7f, 0x01, 0x00, 0x80, 0, 0, 0, 0xff, 0xff, 0x7f, 0x01, 0x00, 0xc0,
    ]);
    const s16 = encodePcm([Float32Array.from([0.5]), Float32Array.from([-0.5])], 1, 16).buffer;
    expect(s16.readInt16LE(0)).toBe(16_384);
    expect(s16.readInt16LE(2)).toBe(-16_383); // Math.round(-16383.5)
  });

  it('streamed chunks add up to the announced size, odd sizes included', () => {
    const chunks = [...wavChunks(constant(0.25, 7, 1), { bitDepth: 24, blockFrames: 3 })];
    const total = chunks.reduce((n, c) => n + c.length, 0);
    expect(total).toBe(wavFileBytes(7, { sampleRate: 48_000, channels: 1, bitDepth: 24 }));
    expect(total % 2).toBe(0);
  });

  it.each([16, 24] as const)(
    'a %i-bit voice over file has the header size, decodes with ffmpeg and sox',
    async (bitDepth) => {
      const path = join(dir, `voice-${bitDepth}.wav`);
      const seconds = voiceOverSeconds(20);
      const src = createVoiceSource({ seed: 'wav', seconds, channels: 2 });
      const size = await writeWavFile(path, src, { bitDepth });
      expect(statSync(path).size).toBe(size);
      expect(size).toBe(wavFileBytes(src.frames, { sampleRate: 48_000, channels: 2, bitDepth }));
      expect(readFileSync(path).readUInt32LE(4)).toBe(size - 8);
      if (has('ffmpeg')) {
        expect(ffmpegErrors(path)).toBe('');
        expect(Number(ffprobe(path, 'format=duration'))).toBeCloseTo(seconds, 2);
      }
      if (has('sox')) {
        expect(Number(execFileSync('sox', ['--i', '-D', path]).toString().trim())).toBeCloseTo(seconds, 2);
        expect(execFileSync('sox', ['--i', '-b', path]).toString().trim()).toBe(String(bitDepth));
      }
    },
  );

  it.skipIf(!has('ffmpeg'))('a voice over measures about -18 LUFS with true peak under -1 dBFS', async () => {
    const path = join(dir, 'loud.wav');
    await writeWavFile(
      path,
      createVoiceSource({ seed: 'loudness', seconds: 20, genderAndAge: 'middleAgeMale' }),
    );
    const log = execFileSync('sh', [
      '-c',
      `ffmpeg -nostats -i '${path}' -af ebur128=peak=true -f null - 2>&1 | sed -n '/Summary/,$p'`,
    ]).toString();
    const integrated = Number(/I:\s+(-?[\d.]+) LUFS/.exec(log)?.[1]);
    const truePeak = Number(/Peak:\s+(-?[\d.]+) dBFS/.exec(log)?.[1]);
    expect(integrated).toBeGreaterThan(-21);
    expect(integrated).toBeLessThan(-15);
    expect(truePeak).toBeLessThan(-0.5);
  });
});
