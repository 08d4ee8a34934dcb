import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeMp3, ffmpegLoudness, generateProgramWav, type ProgramOptions } from '../../../bench/lib/media';
import { decodePeaks } from '../../../shared/audio/peaks-format';
import {
  analyzeFile,
  createStreamingAnalysis,
  detectFormat,
  mp3PeakParts,
  peaksFromFile,
} from './file-analysis';
import { concatPeaks } from './peaks';
import { expectPeaksClose } from './test-support/expect-peaks';
import { encodeMp3 as encodeTestMp3 } from './test-support/test-signals';
import { encodeWav, toneSequence } from './test-support/test-signals';

const hasFfmpeg = ((): boolean => {
  try {
    execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'takedesk-analyze-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('analyzeFile', () => {
  it('reports format facts, loudness and writes peaks beside the file', async () => {
    const x = toneSequence(44100, [{ dbfs: -23, seconds: 5 }]);
    const path = join(dir, 'tone.wav');
    writeFileSync(path, encodeWav([x, x], { sampleRate: 44100, bits: 24, extensible: true }));
    const a = await analyzeFile(path, { target: 'ebu-r128', writePeaks: true });
    expect(a).toMatchObject({
      durationSeconds: 5,
      sampleRate: 44100,
      channels: 2,
      bitDepth: 24,
      codec: 'pcm_s24le',
    });
    expect(Math.abs(a.integratedLufs! + 23)).toBeLessThanOrEqual(0.1);
    expect(a.verdict?.pass).toBe(true);
    expect(a.peaksPath).toBe(`${path}.peaks`);
    const peaks = decodePeaks(readFileSync(`${path}.peaks`));
    expect(peaks.durationSeconds).toBe(5);
    expect(peaks.levels.map((l) => l.samplesPerPixel)).toEqual([256, 1024, 4096]);
    expect(Math.max(...peaks.levels[0]!.minMax)).toBeCloseTo(10 ** (-23 / 20), 3);
  });

  it('streaming analysis in download-sized chunks equals the whole-file result', async () => {
    const x = toneSequence(48000, [
      { dbfs: -30, seconds: 3 },
      { dbfs: -15, seconds: 3.3 },
    ]);
    const bytes = encodeWav([x, x], { sampleRate: 48000, bits: 16 });
    const path = join(dir, 'steps.wav');
    writeFileSync(path, bytes);
    const whole = await analyzeFile(path);
    const s = createStreamingAnalysis({ format: 'wav', peaks: true });
    for (let i = 0; i < bytes.length; i += 65537) await s.write(bytes.subarray(i, i + 65537));
    const { analysis, peaks } = await s.finish();
    expect(analysis).toEqual({ ...whole, verdict: undefined, peaksPath: undefined, ...analysis });
    expect(analysis.integratedLufs).toBe(whole.integratedLufs);
    expect(analysis.truePeakDbtp).toBe(whole.truePeakDbtp);
    expect(peaks?.frames).toBe(x.length);
  });

  it('fails clearly on a truncated WAV and on an unknown format', async () => {
    const x = toneSequence(48000, [{ dbfs: -20, seconds: 1 }]);
    const cut = join(dir, 'cut.wav');
    writeFileSync(cut, encodeWav([x], { sampleRate: 48000, bits: 16 }).subarray(0, 5000));
    await expect(analyzeFile(cut)).rejects.toThrow(/Truncated WAV/);
    const txt = join(dir, 'notes.txt');
    writeFileSync(txt, 'hello');
    await expect(analyzeFile(txt)).rejects.toThrow(/Unknown audio format/);
    await expect(analyzeFile(join(dir, 'missing.wav'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('detectFormat sniffs when the extension says nothing', () => {
    expect(detectFormat('x.bin', new TextEncoder().encode('RIFF'))).toBe('wav');
    expect(detectFormat('x.bin', new TextEncoder().encode('ID3\u0004'))).toBe('mp3');
    expect(detectFormat('x.bin', new Uint8Array([0xff, 0xfb, 0x90, 0]))).toBe('mp3');
    expect(detectFormat('x.MP3', new Uint8Array(4))).toBe('mp3');
  });
});

describe('mp3PeakParts', () => {
  it('builds the parts a shared counter gives out; joined, they are the peaks of one pass', async () => {
    const x = toneSequence(44100, [
      { dbfs: -6, seconds: 4, frequency: 220 },
      { dbfs: -30, seconds: 4, frequency: 3000 },
    ]);
    const path = join(dir, 'parts.mp3');
    writeFileSync(path, encodeTestMp3([x, x], 44100, 128));
    const whole = (await peaksFromFile(path)).peaks;
    // Two callers share one counter: the first takes every part, the second finds none left (and reads nothing).
    const claim = new Int32Array(new SharedArrayBuffer(4));
    const first = await mp3PeakParts(path, { count: 5, claim });
    expect(await mp3PeakParts(path, { count: 5, claim })).toEqual([]);
    expect(first.map((p) => p.index)).toEqual([0, 1, 2, 3, 4]);
    const joined = concatPeaks(first.map((p) => p.peaks));
    expect(joined.frames).toBe(whole.frames);
    expectPeaksClose(joined.levels, whole.levels); // float rounding at the seams only (see mp3.test.ts)
  });
});

describe.skipIf(!hasFfmpeg)('agreement with ffmpeg ebur128 on generated program material', () => {
  const cases: Array<[string, ProgramOptions]> = [
    [
      'speech-like noise bursts, 48 kHz 24-bit stereo',
      { seconds: 45, kind: 'speech', bitDepth: 24, gainDb: 6 },
    ],
    ['music-like chords, 48 kHz float stereo', { seconds: 45, kind: 'music', bitDepth: 'float', gainDb: 3 }],
    [
      'program (both + swells), 48 kHz 16-bit stereo',
      { seconds: 60, kind: 'program', bitDepth: 16, gainDb: 8 },
    ],
    ['program, 48 kHz 32-bit mono', { seconds: 40, kind: 'program', bitDepth: 32, channels: 1, gainDb: 4 }],
    ['program, 44.1 kHz 24-bit stereo', { seconds: 40, kind: 'program', sampleRate: 44100, gainDb: 6 }],
    ['program, 96 kHz 24-bit stereo', { seconds: 30, kind: 'program', sampleRate: 96000, gainDb: 6 }],
  ];
  it.each(cases)('%s: |ΔI| <= 0.1 LU, |ΔLRA| <= 0.5 LU, |ΔTP| <= 0.3 dB', async (name, options) => {
    const path = join(dir, `${name.replace(/\W+/g, '-')}.wav`);
    await generateProgramWav(path, options);
    const [ours, ref] = await Promise.all([analyzeFile(path), ffmpegLoudness(path)]);
    expect(Math.abs(ours.integratedLufs! - ref.integratedLufs)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(ours.loudnessRangeLu - ref.loudnessRangeLu)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(ours.truePeakDbtp! - ref.truePeakDbtp!)).toBeLessThanOrEqual(0.3);
  });

  it('decodes an MP3 (ffmpeg/LAME) with the WAV duration and loudness', async () => {
    const wav = join(dir, 'for-mp3.wav');
    const mp3 = join(dir, 'for-mp3.mp3');
    await generateProgramWav(wav, { seconds: 30, kind: 'program', sampleRate: 44100, gainDb: 6 });
    await encodeMp3(wav, mp3, 192);
    const [a, b, ref] = await Promise.all([
      analyzeFile(wav),
      analyzeFile(mp3, { writePeaks: true }),
      ffmpegLoudness(mp3),
    ]);
    expect(b).toMatchObject({ codec: 'mp3', bitDepth: null, sampleRate: 44100, channels: 2 });
    // Gapless decoding removes the encoder delay and padding: the length matches to the millisecond.
    expect(Math.abs(b.durationSeconds - a.durationSeconds)).toBeLessThan(0.001);
    // Lossy coding shifts the level a little (LAME 192k measured ~0.3 LU here, by ffmpeg too).
    expect(Math.abs(b.integratedLufs! - a.integratedLufs!)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(b.integratedLufs! - ref.integratedLufs)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(b.truePeakDbtp! - ref.truePeakDbtp!)).toBeLessThanOrEqual(0.3);
    expect(b.peaksPath).toBe(`${mp3}.peaks`);
  });

  it('rejects a file that is not MP3 despite its name', async () => {
    const bad = join(dir, 'bad.mp3');
    writeFileSync(bad, Buffer.alloc(5000, 7));
    await expect(analyzeFile(bad)).rejects.toThrow(/Not an MP3 file/);
  });
});
