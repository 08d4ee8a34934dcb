// Benchmark (issue 5, 8b/8c): our loudness meter and peaks against ffmpeg/sox on a 10-minute 48 kHz/24-bit
// stereo WAV (172.8 MB) and its MP3, side by side in one run. `npx tsx bench/analysis.ts [--runs N] [--seconds S]`
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { analyzeFile, peaksFromFile, type FileAnalysis } from '../electron/main/audio/file-analysis';
import { encodeMp3, ffmpegLoudness, generateProgramWav, type FfmpegLoudness } from './lib/media';
import { createAnalyzer } from '../electron/main/audio/analyzer';
import { comparisonTable, markdownTable, printComparison, seconds, type Comparison } from './lib/report';
import { hasCommand, runCommand, timeRuns } from './lib/timing';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, seconds: { type: 'string', default: '600' } },
});
const runs = Math.max(1, Number(values.runs));
const duration = Math.max(10, Number(values.seconds));

const ffmpegEbur128 = ffmpegLoudness;
const ffmpegNull = (file: string) =>
  runCommand('ffmpeg', ['-nostdin', '-hide_banner', '-nostats', '-i', file, '-f', 'null', '-']);
const soxStat = (file: string) => runCommand('sox', [file, '-n', 'stat']);

async function main(): Promise<void> {
  for (const tool of ['ffmpeg', 'sox']) {
    if (!(await hasCommand(tool, tool === 'sox' ? '--version' : '-version'))) {
      console.error(
        `bench/analysis: ${tool} is not installed; it is the reference this benchmark compares against.`,
      );
      process.exitCode = 1;
      return;
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'takedesk-bench-analysis-'));
  try {
    const wav = join(dir, 'program-48k-24bit-stereo.wav');
    const mp3 = join(dir, 'program-48k-192k.mp3');
    let t0 = performance.now();
    await generateProgramWav(wav, {
      seconds: duration,
      sampleRate: 48000,
      bitDepth: 24,
      channels: 2,
      gainDb: 9,
    });
    console.log(
      `Generated ${wav} (${(statSync(wav).size / 1e6).toFixed(1)} MB) in ${seconds(performance.now() - t0)}`,
    );
    t0 = performance.now();
    await encodeMp3(wav, mp3, 192);
    console.log(
      `Encoded ${mp3} (${(statSync(mp3).size / 1e6).toFixed(1)} MB) in ${seconds(performance.now() - t0)}`,
    );
    console.log(`Node ${process.version}, ${runs} runs each, median reported.`);

    const comparisons: Comparison[] = [];
    const agreement: string[][] = [];
    const compare = async <A, B>(
      task: string,
      ours: () => Promise<A>,
      referenceName: string,
      reference: () => Promise<B>,
    ): Promise<{ ours: A; reference: B }> => {
      const o = await timeRuns(runs, ours);
      const r = await timeRuns(runs, reference);
      const c = { task, ours: o, reference: r, referenceName };
      printComparison(c);
      comparisons.push(c);
      return { ours: o.last, reference: r.last };
    };
    const agree = (label: string, ours: FileAnalysis, ref: FfmpegLoudness): void => {
      const d = (a: number | null, b: number | null): string =>
        a === null || b === null ? 'n/a' : (a - b).toFixed(2);
      agreement.push([
        label,
        `${ours.integratedLufs?.toFixed(2)} / ${ref.integratedLufs.toFixed(1)} (Δ ${d(ours.integratedLufs, ref.integratedLufs)})`,
        `${ours.loudnessRangeLu.toFixed(2)} / ${ref.loudnessRangeLu.toFixed(1)} (Δ ${d(ours.loudnessRangeLu, ref.loudnessRangeLu)})`,
        `${ours.truePeakDbtp?.toFixed(2)} / ${ref.truePeakDbtp?.toFixed(1)} (Δ ${d(ours.truePeakDbtp, ref.truePeakDbtp)})`,
      ]);
    };

    const loud = await compare(
      '(b) WAV loudness incl. true peak',
      () => analyzeFile(wav),
      'ffmpeg ebur128',
      () => ffmpegEbur128(wav),
    );
    agree('WAV 48k/24 10 min', loud.ours, loud.reference);
    await compare(
      '(c) WAV peaks (.peaks written)',
      () => peaksFromFile(wav, { write: true }),
      'ffmpeg -f null',
      () => ffmpegNull(wav),
    );
    await compare(
      '(c) WAV peaks (.peaks written)',
      () => peaksFromFile(wav, { write: true }),
      'sox stat',
      () => soxStat(wav),
    );
    await compare(
      'WAV full analysis (loudness + TP + peaks, one pass)',
      () => analyzeFile(wav, { writePeaks: true }),
      'ffmpeg ebur128',
      () => ffmpegEbur128(wav),
    );
    const mp3Loud = await compare(
      '(b) MP3 loudness incl. true peak',
      () => analyzeFile(mp3),
      'ffmpeg ebur128',
      () => ffmpegEbur128(mp3),
    );
    agree('MP3 192k 10 min', mp3Loud.ours, mp3Loud.reference);
    // sox here is built without MP3 support, so the MP3 reference is ffmpeg alone.
    // One thread: the same pass the WAV rows time.
    await compare(
      '(c) MP3 peaks, one thread (.peaks written)',
      () => peaksFromFile(mp3, { write: true }),
      'ffmpeg -f null',
      () => ffmpegNull(mp3),
    );
    // What the app does (library peaks, Analyzer.peaks): its analysis pool of two worker threads, started with the
    // app and kept, decodes the two halves at once (mpg123 seeks sample-accurately; seams on whole buckets).
    const pool = createAnalyzer({ poolSize: 2 });
    try {
      // Start both workers as the app has them: each answers one job on a two-second file first.
      const small = join(dir, 'warm-up.wav');
      await generateProgramWav(small, {
        seconds: 2,
        sampleRate: 48000,
        bitDepth: 16,
        channels: 2,
        gainDb: 0,
      });
      await Promise.all([pool.analyze(small), pool.analyze(small)]);
      await compare(
        '(c) MP3 peaks, app pool of 2 threads (.peaks written)',
        () => pool.peaks(mp3, { write: true }),
        'ffmpeg -f null',
        () => ffmpegNull(mp3),
      );
    } finally {
      await pool.close();
    }

    console.log('\n## Audio analysis benchmark\n');
    console.log(comparisonTable(comparisons));
    console.log('\nAgreement (ours / ffmpeg ebur128; ffmpeg prints one decimal):\n');
    console.log(markdownTable(['File', 'Integrated LUFS', 'LRA LU', 'True peak dBTP'], agreement));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
