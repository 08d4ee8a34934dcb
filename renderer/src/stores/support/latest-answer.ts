/**
 * "Latest answer wins": a request asked later makes every earlier one stale, so an answer that arrives after a
 * newer question (another take, another search, a reset) is dropped instead of overwriting what is shown.
 */
export interface LatestAnswer {
  /** Starts a request: earlier ones go stale. The returned check says whether this one is still the latest. */
  next(): () => boolean;
  /** A check for the request now latest, without starting one (a refresh that must yield to the next load). */
  current(): () => boolean;
  /** Makes every request under way stale (nothing replaces it). */
  drop(): void;
}

export function latestAnswer(): LatestAnswer {
  let latest = 0;
  const checkFor = (ticket: number) => () => ticket === latest;
  return {
    next: () => checkFor(++latest),
    current: () => checkFor(latest),
    drop: () => void latest++,
  };
}
