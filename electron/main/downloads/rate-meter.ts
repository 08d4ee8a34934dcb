/** Transfer rate over a sliding window of (time, bytes) samples. */
export interface RateMeter {
  sample(timeMs: number, bytes: number): void;
  /** Bytes per second over the window; 0 until two samples exist. */
  rate(): number;
}

/** A sliding-window meter: a few seconds smooths bursts without hiding a stall for long. */
export function createRateMeter(windowMs = 5000): RateMeter {
  const samples: Array<[number, number]> = [];
  return {
    sample(timeMs, bytes) {
      samples.push([timeMs, bytes]);
      while (samples.length > 2 && (samples[0]?.[0] ?? timeMs) < timeMs - windowMs) samples.shift();
    },
    rate() {
      const first = samples[0];
      const last = samples[samples.length - 1];
      if (!first || !last || last[0] <= first[0]) return 0;
      return Math.max(0, ((last[1] - first[1]) * 1000) / (last[0] - first[0]));
    },
  };
}
