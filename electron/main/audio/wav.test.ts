import { describe, expect, it } from 'vitest';
import { AudioDecodeError } from './errors';
import { encodeWav, joinPlanar, toneSequence } from './test-support/test-signals';
import { createWavDecoder, type WavFormat } from './wav';

/** Decodes a WAV image fed in chunks of `chunk` bytes; returns format and concatenated planar samples. */
function decode(
  bytes: Uint8Array,
  chunk = 1000,
): { format: WavFormat | null; planar: Float32Array[]; frames: number } {
  const parts: Float32Array[][] = [];
  const dec = createWavDecoder({ onData: (p, n) => parts.push(p.map((c) => c.slice(0, n))) });
  for (let i = 0; i < bytes.length; i += chunk) dec.write(bytes.subarray(i, i + chunk));
  const frames = dec.end();
  const channels = dec.format?.channels ?? 0;
  return { format: dec.format, planar: joinPlanar(parts, channels), frames };
}

const signal = (channels: number, frames = 5000): Float32Array[] =>
  Array.from({ length: channels }, (_, c) =>
    toneSequence(48000, [{ dbfs: -1 - c, seconds: frames / 48000, frequency: 440 * (c + 1) }]),
  );

const maxError = (a: Float32Array[], b: Float32Array[]): number => {
  let m = 0;
  a.forEach((ch, c) =>
    ch.forEach((v, i) => (m = Math.max(m, Math.abs(v - ((b[c] as Float32Array)[i] as number))))),
  );
  return m;
};

describe('createWavDecoder', () => {
  it.each([
    { bits: 8, float: false, tol: 2 / 128, codec: 'pcm_u8' },
    { bits: 16, float: false, tol: 2 / 32768, codec: 'pcm_s16le' },
    { bits: 24, float: false, tol: 1e-6, codec: 'pcm_s24le' },
    { bits: 32, float: false, tol: 1e-7, codec: 'pcm_s32le' },
    { bits: 32, float: true, tol: 0, codec: 'pcm_f32le' },
    { bits: 64, float: true, tol: 0, codec: 'pcm_f64le' },
  ] as const)(
    'decodes $codec to quantisation accuracy across odd chunk boundaries',
    ({ bits, float, tol, codec }) => {
      const x = signal(2);
      const { format, planar, frames } = decode(encodeWav(x, { sampleRate: 48000, bits, float }), 997);
      expect(format).toMatchObject({
        sampleRate: 48000,
        channels: 2,
        bitDepth: bits,
        codec,
        container: 'RIFF',
      });
      expect(frames).toBe(5000);
      expect(maxError(planar, x)).toBeLessThanOrEqual(tol);
    },
  );

  it('reads WAVE_FORMAT_EXTENSIBLE (ffmpeg writes it for 24-bit) and 6 channels', () => {
    const x = signal(6, 3000);
    const { format, planar } = decode(encodeWav(x, { sampleRate: 44100, bits: 24, extensible: true }), 1);
    expect(format).toMatchObject({ sampleRate: 44100, channels: 6, bitDepth: 24, codec: 'pcm_s24le' });
    expect(maxError(planar, x)).toBeLessThan(1e-6);
  });

  it('skips unknown chunks, including odd-sized ones with a pad byte', () => {
    const x = signal(1, 100);
    const { planar } = decode(encodeWav(x, { sampleRate: 8000, bits: 16, junkBytes: 13 }), 7);
    expect(maxError(planar, x)).toBeLessThan(1e-4);
  });

  it('reads RF64 with the data size in ds64', () => {
    const x = signal(2, 1234);
    const { format, frames } = decode(encodeWav(x, { sampleRate: 96000, bits: 32, float: true, rf64: true }));
    expect(format).toMatchObject({ container: 'RF64', dataBytes: 1234 * 8, sampleRate: 96000 });
    expect(frames).toBe(1234);
  });

  it('delivers big writes in reusable blocks of at most 16384 frames', () => {
    const sizes: number[] = [];
    const dec = createWavDecoder({ onData: (_p, n) => sizes.push(n) });
    dec.write(encodeWav(signal(2, 40000), { sampleRate: 48000, bits: 16 }));
    expect(dec.end()).toBe(40000);
    expect(sizes).toEqual([16384, 16384, 7232]);
  });

  const errorCases: Array<[string, Uint8Array, AudioDecodeError['code'], RegExp]> = [
    ['an empty file', new Uint8Array(0), 'not-wav', /empty/],
    [
      'an MP3 named .wav',
      new TextEncoder().encode('ID3\u0004\u0000\u0000\u0000\u0000\u0000\u0000'),
      'not-wav',
      /RIFF/,
    ],
    [
      'a file cut inside the data chunk',
      encodeWav(signal(2, 1000), { sampleRate: 48000, bits: 16 }).subarray(0, 2000),
      'truncated',
      /declares 4000 bytes but only 1956/,
    ],
    [
      'a file cut inside the header',
      encodeWav(signal(2, 1000), { sampleRate: 48000, bits: 16 }).subarray(0, 30),
      'truncated',
      /before its fmt chunk/,
    ],
  ];
  it.each(errorCases)('rejects %s with a clear error', (_name, bytes, code, message) => {
    let caught: unknown;
    try {
      const dec = createWavDecoder({ onData: () => {} });
      dec.write(bytes);
      dec.end();
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AudioDecodeError);
    expect((caught as AudioDecodeError).code).toBe(code);
    expect((caught as Error).message).toMatch(message);
  });

  it('rejects compressed WAV encodings (e.g. ADPCM) as unsupported', () => {
    const bytes = encodeWav(signal(1, 10), { sampleRate: 8000, bits: 16 });
    bytes[20] = 2; // format tag 0x0002 = MS ADPCM
    const dec = createWavDecoder({ onData: () => {} });
    expect(() => dec.write(bytes)).toThrow(/Unsupported WAV encoding 0x2/);
  });

  it('rejects a data chunk that comes before fmt', () => {
    const bytes = new Uint8Array(20);
    bytes.set(new TextEncoder().encode('RIFF\u000c\u0000\u0000\u0000WAVEdata'));
    const dec = createWavDecoder({ onData: () => {} });
    expect(() => dec.write(bytes)).toThrow(/data chunk before fmt/);
  });
});
