import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AudioDecodeError } from './errors';
import { createMp3Decoder, decodeMp3Span, partSpan, type Mp3Span } from './mp3';
import { createPeaksBuilder, type PeaksBuilder } from './peaks';
import { encodeMp3, encodeWav, joinPlanar, toneSequence } from './test-support/test-signals';

/** Decoded samples, per channel, concatenated. */
interface Pcm {
  sampleRate: number;
  channels: Float32Array[];
}

function collector() {
  const blocks: Float32Array[][] = [];
  let sampleRate = 0;
  return {
    sink: {
      onFormat: (f: { sampleRate: number }) => (sampleRate = f.sampleRate),
      // The decoder hands out views into its memory: copy them.
      onData: (planar: Float32Array[]) => blocks.push(planar.map((c) => c.slice())),
    },
    pcm(): Pcm {
      return { sampleRate, channels: joinPlanar(blocks) };
    },
  };
}

function decodeSpan(file: Uint8Array, span: Mp3Span | ((length: number) => Mp3Span)) {
  const c = collector();
  const result = decodeMp3Span(file, span, c.sink);
  return { ...result, pcm: c.pcm() };
}

async function decodeFed(file: Uint8Array, slice: number): Promise<Pcm> {
  const c = collector();
  const decoder = createMp3Decoder(c.sink);
  for (let o = 0; o < file.length; o += slice) await decoder.write(file.subarray(o, o + slice));
  await decoder.end();
  return c.pcm();
}

/**
 * Largest sample difference between a and b, which must have the same shape. Decoding after a seek differs from
 * decoding straight through only by float rounding (mpg123's synthesis ring buffer restarts at another phase):
 * ~1e-7, i.e. below -130 dBFS and far below one step of 16-bit audio.
 */
const SEAM_TOLERANCE = 1e-6;

/** Largest sample difference between a and b, which must have the same shape. */
function maxDifference(a: Pcm, b: Pcm): number {
  expect(b.channels.length).toBe(a.channels.length);
  let max = 0;
  for (let c = 0; c < a.channels.length; c++) {
    const x = a.channels[c] as Float32Array;
    const y = b.channels[c] as Float32Array;
    expect(y.length).toBe(x.length);
    for (let i = 0; i < x.length; i++) max = Math.max(max, Math.abs((x[i] as number) - (y[i] as number)));
  }
  return max;
}

function join2(parts: Pcm[]): Pcm {
  const first = parts[0] as Pcm;
  return {
    sampleRate: first.sampleRate,
    channels: joinPlanar(
      parts.map((p) => p.channels),
      first.channels.length,
    ),
  };
}

/** A stereo programme of tone steps (different per channel), encoded by lamejs (the sandbox's encoder). */
function lameJsMp3(seconds: number, sampleRate: number): Uint8Array {
  const left = toneSequence(sampleRate, [
    { dbfs: -12, seconds: seconds / 2, frequency: 440 },
    { dbfs: -30, seconds: seconds / 2, frequency: 3000 },
  ]);
  return encodeMp3([left, toneSequence(sampleRate, [{ dbfs: -18, seconds, frequency: 1000 }])], sampleRate);
}

const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0;

/** Encodes a WAV with ffmpeg's libmp3lame (which writes the LAME gapless tag); returns the MP3's path. */
function ffmpegLame(name: string, wavBytes: Uint8Array, bitrate: string): string {
  const wav = join(dir, `${name}.wav`);
  const mp3 = join(dir, `${name}.mp3`);
  writeFileSync(wav, wavBytes);
  const args = ['-nostdin', '-y', '-v', 'error', '-i', wav, '-c:a', 'libmp3lame', '-b:a', bitrate, mp3];
  expect(spawnSync('ffmpeg', args).status).toBe(0);
  return mp3;
}
let dir: string;
let lame: Uint8Array;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'takedesk-mp3-'));
  lame = lameJsMp3(20, 44100);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('MP3 decoding (libmpg123 in WebAssembly)', () => {
  it('decodes a file fed in pieces of any size to the same samples as decoding it from memory', async () => {
    const whole = decodeSpan(lame, { start: 0, end: null });
    expect(whole.pcm.sampleRate).toBe(44100);
    expect(whole.pcm.channels).toHaveLength(2);
    expect(whole.frames).toBe(whole.length);
    // 20 s plus at most the encoder's delay and padding (lamejs writes no gapless tag).
    expect(whole.length).toBeGreaterThanOrEqual(20 * 44100);
    expect(whole.length).toBeLessThan(20 * 44100 + 3 * 1152);
    for (const slice of [417, 65_536, 1 << 20]) {
      expect(maxDifference(whole.pcm, await decodeFed(lame, slice))).toBe(0);
    }
  });

  it.each([2, 3, 5])('decodes in %i parts that join into the samples of the whole', (count) => {
    const whole = decodeSpan(lame, { start: 0, end: null });
    const parts = Array.from({ length: count }, (_, index) =>
      decodeSpan(lame, (length) => partSpan(length, index, count, 4096)),
    );
    parts.forEach((p, i) => {
      if (i < count - 1) expect(p.frames % 4096).toBe(0);
    });
    expect(maxDifference(whole.pcm, join2(parts.map((p) => p.pcm)))).toBeLessThanOrEqual(SEAM_TOLERANCE);
  });

  it.runIf(hasFfmpeg)('trims the encoder delay and padding of a LAME-tagged file, also across a seam', () => {
    const x = toneSequence(48000, [{ dbfs: -20, seconds: 7.3, frequency: 997 }]);
    const mp3 = ffmpegLame('gapless', encodeWav([x, x], { sampleRate: 48000, bits: 16 }), '160k');
    const file = new Uint8Array(readFileSync(mp3));
    const whole = decodeSpan(file, { start: 0, end: null });
    expect(whole.length).toBe(x.length); // exactly the samples that went in
    const halves = [0, 1].map((index) => decodeSpan(file, (length) => partSpan(length, index, 2, 4096)));
    expect(maxDifference(whole.pcm, join2(halves.map((h) => h.pcm)))).toBeLessThanOrEqual(SEAM_TOLERANCE);
  });

  it.runIf(hasFfmpeg)("agrees with ffmpeg's own MP3 decoder sample for sample", () => {
    // Rich material (steps, two tones per channel, silence) so every synthesis path is exercised.
    const left = toneSequence(44100, [
      { dbfs: -6, seconds: 2, frequency: 110 },
      { dbfs: -60, seconds: 1, frequency: 7000 },
      { dbfs: -Infinity, seconds: 0.5 },
      { dbfs: -14, seconds: 2.5, frequency: 12_000 },
    ]);
    const right = toneSequence(44100, [{ dbfs: -9, seconds: 6, frequency: 523 }]);
    const mp3 = ffmpegLame(
      'versus-ffmpeg',
      encodeWav([left, right], { sampleRate: 44100, bits: 24 }),
      '128k',
    );
    const dec = spawnSync(
      'ffmpeg',
      ['-nostdin', '-v', 'error', '-i', mp3, '-f', 'f32le', '-c:a', 'pcm_f32le', '-'],
      {
        maxBuffer: 64 << 20,
      },
    );
    expect(dec.status).toBe(0);
    const ref = new Float32Array(dec.stdout.buffer, dec.stdout.byteOffset, dec.stdout.byteLength / 4);
    const ours = decodeSpan(new Uint8Array(readFileSync(mp3)), { start: 0, end: null }).pcm;
    const interleaved: Pcm = {
      sampleRate: 44100,
      channels: [0, 1].map((c) =>
        Float32Array.from({ length: ref.length / 2 }, (_, i) => ref[2 * i + c] as number),
      ),
    };
    // Two float decoders of the same stream: equal to float rounding (measured ~3e-7).
    expect(maxDifference(interleaved, ours)).toBeLessThanOrEqual(1e-5);
  });

  it('decodes the channel mix itself: (L+R)/2 of the stereo decode, fed or from memory, across a seek too', async () => {
    // Different material per channel (tone steps against a steady tone), joint stereo from lamejs.
    const file = lameJsMp3(6, 44100);
    const stereo = decodeSpan(file, { start: 0, end: null }).pcm;
    expect(stereo.channels).toHaveLength(2);
    const [l, r] = stereo.channels as [Float32Array, Float32Array];
    const halfSum: Pcm = { sampleRate: 44100, channels: [l.map((v, i) => (v + r[i]!) / 2)] };

    const c = collector();
    decodeMp3Span(file, { start: 0, end: null }, c.sink, { mix: true });
    const mixed = c.pcm();
    expect(mixed.channels).toHaveLength(1);
    // The mix is made in the frequency domain; IMDCT and synthesis are linear, so only rounding differs.
    expect(maxDifference(halfSum, mixed)).toBeLessThanOrEqual(1e-5);

    const fed = collector();
    const decoder = createMp3Decoder(fed.sink, { mix: true });
    for (let o = 0; o < file.length; o += 3000) await decoder.write(file.subarray(o, o + 3000));
    await decoder.end();
    expect(maxDifference(halfSum, fed.pcm())).toBeLessThanOrEqual(1e-5);

    const seam = 100_000;
    const parts = [0, 1].map((k) => {
      const p = collector();
      decodeMp3Span(file, { start: k === 0 ? 0 : seam, end: k === 0 ? seam : null }, p.sink, { mix: true });
      return p.pcm();
    });
    expect(maxDifference(halfSum, join2(parts))).toBeLessThanOrEqual(1e-5);
    // A different channel mix would be far off: the two channels carry different tones.
    expect(maxDifference({ sampleRate: 44100, channels: [l] }, mixed)).toBeGreaterThan(0.01);
  });

  it("hands mono blocks a min/max from the decoder's memory that builds the very peaks a scan builds", () => {
    const file = lameJsMp3(6, 44100);
    // Odd bucket sizes and a span ending inside a block: ranges of every length and alignment.
    const build = (useDecoder: boolean, levels: number[]) => {
      let builder: PeaksBuilder | null = null;
      let offered = 0;
      decodeMp3Span(
        file,
        { start: 1000, end: 200_001 },
        {
          onFormat: (f) => (builder = createPeaksBuilder({ ...f, levels })),
          onData: (planar, frames, minMax) => {
            if (minMax) offered++;
            builder?.push(planar, frames, useDecoder ? minMax : undefined);
          },
        },
        { mix: true },
      );
      return { peaks: (builder as PeaksBuilder | null)?.result(), offered };
    };
    for (const levels of [
      [1, 3],
      [7, 21],
      [256, 1024, 4096],
    ]) {
      const scanned = build(false, levels);
      const fromDecoder = build(true, levels);
      expect(fromDecoder.offered).toBeGreaterThan(0);
      expect(fromDecoder.peaks?.frames).toBe(199_001);
      expect(fromDecoder.peaks).toEqual(scanned.peaks);
    }
  });

  it('splits a length into aligned parts that cover it once', () => {
    const length = 1_234_567;
    const spans = [0, 1, 2].map((i) => partSpan(length, i, 3, 4096));
    expect(spans[0]?.start).toBe(0);
    expect(spans[2]?.end).toBeNull();
    expect(spans[0]?.end).toBe(spans[1]?.start);
    expect(spans[1]?.end).toBe(spans[2]?.start);
    for (const s of spans.slice(1)) expect(s.start % 4096).toBe(0);
    expect(partSpan(length, 0, 1, 4096)).toEqual({ start: 0, end: null });
  });

  it('rejects what is not MP3 with a clear error, in both modes', async () => {
    const garbage = new TextEncoder().encode('this is a text file, not audio at all. '.repeat(2000));
    for (const bytes of [new Uint8Array(0), garbage]) {
      const fed = createMp3Decoder({ onData: () => undefined });
      await fed.write(bytes);
      const error = await fed.end().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AudioDecodeError);
      expect(error).toMatchObject({ code: 'not-mp3', message: expect.stringMatching(/^Not an MP3 file/) });
      expect(() => decodeMp3Span(bytes, { start: 0, end: null }, { onData: () => undefined })).toThrow(
        AudioDecodeError,
      );
    }
  });

  it('survives damaged frames: flipped bytes decode to samples or a clear error, never a trap, the same each time', () => {
    // The Huffman and synthesis patches read the bit stream their own way: damaged data must still stay in bounds.
    let seed = 0x2545f491;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let round = 0; round < 12; round++) {
      const damaged = lame.slice();
      const flips = 1 + Math.floor(next() * 400);
      for (let i = 0; i < flips; i++)
        damaged[Math.floor(next() * damaged.length)]! ^= 1 << Math.floor(next() * 8);
      const run = () => {
        try {
          const { frames, pcm } = decodeSpan(damaged, { start: 0, end: null });
          for (const channel of pcm.channels)
            for (const v of channel) if (!Number.isFinite(v)) return 'not finite';
          return frames;
        } catch (error) {
          expect(error).toBeInstanceOf(AudioDecodeError);
          return (error as AudioDecodeError).code;
        }
      };
      const first = run();
      expect(first).not.toBe('not finite');
      expect(run()).toBe(first);
    }
  });

  it('decodes a file cut short up to the cut, and says so when asked to seek past its end', () => {
    const cut = lame.subarray(0, lame.length >> 1);
    const half = decodeSpan(cut, { start: 0, end: null });
    expect(half.frames).toBeGreaterThan(9 * 44100);
    expect(half.frames).toBeLessThan(11 * 44100);
    expect(() =>
      decodeMp3Span(cut, { start: half.length + 1, end: null }, { onData: () => undefined }),
    ).toThrow(/after the end/);
  });
});
