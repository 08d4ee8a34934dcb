import { createHash } from 'node:crypto';

/** Seeded pseudo-random source: the same seed string gives the same sequence on every run and machine. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [lo, hi] (inclusive). */
  int(lo: number, hi: number): number;
  /** Uniform in [lo, hi). */
  range(lo: number, hi: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** True with probability p. */
  chance(p: number): boolean;
  /** Fills target[0..n) with uniform noise in [-1, 1): one draw per sample, in order. */
  fillNoise(target: Float32Array, n: number): void;
}

/** Four 32-bit words from the SHA-256 of a string, for seeding. */
export function seedWords(seed: string): [number, number, number, number] {
  const h = createHash('sha256').update(seed).digest();
  return [h.readUInt32LE(0), h.readUInt32LE(4), h.readUInt32LE(8), h.readUInt32LE(12)];
}

/** sfc32 generator: small, fast and good enough for noise and seed data (not for secrets). */
export function createRng(seed: string): Rng {
  let [a, b, c, d] = seedWords(seed);
  const u32 = (): number => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (a + b + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  // Discard the first outputs: sfc32 mixes its state in the first few rounds.
  for (let i = 0; i < 12; i++) u32();
  const next = (): number => u32() / 4294967296;
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    range: (lo, hi) => lo + next() * (hi - lo),
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new RangeError('pick() from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    chance: (p) => next() < p,
    fillNoise(target, n) {
      for (let i = 0; i < n; i++) target[i] = u32() / 2147483648 - 1;
    },
  };
}

/** Stable 32-bit hash of a string (for bucketing, e.g. which talent is away). */
export function hash32(text: string): number {
  return seedWords(text)[0];
}
