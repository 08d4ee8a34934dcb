// `npm run analyze -- <file> [--target ebu-r128|atsc-a85|podcast|streaming]`: one JSON object on stdout.
import { parseArgs } from 'node:util';
import { DELIVERY_TARGETS, isDeliveryTargetId } from '../../../shared/audio/qa';
import { analyzeFile } from './file-analysis';

const USAGE = `Usage: npm run analyze -- <file.wav|file.mp3> [--target ${Object.keys(DELIVERY_TARGETS).join('|')}] [--seconds <ordered>] [--peaks]`;

/** Runs the CLI; returns the exit code (0 ok, 1 unreadable input, 2 bad usage). */
export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        target: { type: 'string', default: 'ebu-r128' },
        seconds: { type: 'string' },
        peaks: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    process.stderr.write(`analyze: ${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const file = positionals[0];
  if (!file || positionals.length > 1) {
    process.stderr.write(`analyze: expected exactly one file.\n${USAGE}\n`);
    return 2;
  }
  const target = values.target;
  if (!isDeliveryTargetId(target)) {
    process.stderr.write(
      `analyze: unknown target "${target}" (use one of: ${Object.keys(DELIVERY_TARGETS).join(', ')}).\n`,
    );
    return 2;
  }
  const ordered = values.seconds === undefined ? undefined : Number(values.seconds);
  if (ordered !== undefined && !(ordered > 0)) {
    process.stderr.write(`analyze: --seconds must be a positive number.\n`);
    return 2;
  }
  try {
    const a = await analyzeFile(file, {
      target,
      writePeaks: values.peaks,
      ...(ordered !== undefined ? { qa: { orderedSeconds: ordered } } : {}),
    });
    // Two decimals: finer than any meter's stated accuracy, and readable in a terminal.
    const r2 = (x: number | null): number | null => (x === null ? null : Math.round(x * 100) / 100);
    const out = {
      durationSeconds: a.durationSeconds,
      sampleRate: a.sampleRate,
      channels: a.channels,
      bitDepth: a.bitDepth,
      integratedLufs: r2(a.integratedLufs),
      loudnessRangeLu: r2(a.loudnessRangeLu),
      maxMomentaryLufs: r2(a.maxMomentaryLufs),
      maxShortTermLufs: r2(a.maxShortTermLufs),
      truePeakDbtp: r2(a.truePeakDbtp),
      samplePeakDbfs: r2(a.samplePeakDbfs),
      verdict: a.verdict,
    };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why =
      e.code === 'ENOENT'
        ? 'no such file'
        : e.code === 'EACCES'
          ? 'permission denied'
          : e.code === 'EISDIR'
            ? 'is a directory'
            : e.message;
    process.stderr.write(`analyze: cannot analyse ${file}: ${why}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
