import type { Timing } from './timing';

/** One side-by-side comparison: ours against a reference tool on the same input. */
export interface Comparison {
  task: string;
  ours: Timing;
  reference: Timing;
  referenceName: string;
}

/** "x.xx s" for milliseconds. */
export const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

/** How many times faster ours is (reference time / our time). */
export const speedup = (c: Comparison): number => c.reference.medianMs / c.ours.medianMs;

/** Prints one comparison as soon as it is measured. */
export function printComparison(c: Comparison): void {
  const runs = (t: Timing): string => t.runsMs.map((ms) => seconds(ms)).join(', ');
  console.log(`\n${c.task}`);
  console.log(`  ours:           median ${seconds(c.ours.medianMs)}  (runs: ${runs(c.ours)})`);
  console.log(
    `  ${c.referenceName.padEnd(15)} median ${seconds(c.reference.medianMs)}  (runs: ${runs(c.reference)})`,
  );
  console.log(
    `  ratio:          ${speedup(c).toFixed(2)}x ${speedup(c) >= 1 ? 'faster' : 'slower'} than ${c.referenceName}`,
  );
}

/** Renders rows as a GitHub markdown table. */
export function markdownTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Markdown table of comparisons (task, ours, reference, speed-up). */
export function comparisonTable(comparisons: readonly Comparison[]): string {
  return markdownTable(
    ['Task', 'Ours (median)', 'Reference', 'Reference (median)', 'Speed-up'],
    comparisons.map((c) => [
      c.task,
      seconds(c.ours.medianMs),
      c.referenceName,
      seconds(c.reference.medianMs),
      `${speedup(c).toFixed(2)}x`,
    ]),
  );
}
