/** Compares waveform peaks made in pieces with those made in one go: equal but for float rounding at the seams. */
import { expect } from 'vitest';

/** Expects `levels` to match `reference` level by level, each min/max within 1e-6. */
export function expectPeaksClose(
  levels: readonly { minMax: ArrayLike<number> }[],
  reference: readonly { minMax: ArrayLike<number> }[],
): void {
  expect(levels.length).toBe(reference.length);
  levels.forEach((level, i) => {
    const ref = reference[i]!.minMax;
    expect(level.minMax.length).toBe(ref.length);
    let max = 0;
    for (let k = 0; k < ref.length; k++) max = Math.max(max, Math.abs(level.minMax[k]! - ref[k]!));
    expect(max).toBeLessThanOrEqual(1e-6);
  });
}
