import { hash32 } from '../media/prng';
import type { Pro } from './pros';

/**
 * Simulated talents: which pro records a deliverable, who is away, and who enters a contest.
 * All a sandbox choice, derived from the pro catalogue by hashing, so it is the same on every
 * run: a talent is away in about one week out of eight (ISO weeks, UTC), until the Monday after.
 * The server's /_sandbox/deliverables/{id}/talent-away control overrides this per deliverable.
 */
export interface TalentRoster {
  /** The pro who records work identified by `seed`, preferring the language and voice asked for. */
  talentFor(seed: string, want?: { language?: string | undefined; genderAndAge?: string | undefined }): Pro;
  /** End of the talent's current absence (start of the next UTC week), or null when available. */
  awayUntil(publicId: string, now: Date): Date | null;
  /** `count` different pros entering the contest `seed` (default 3), preferring the language and voice. */
  contestEntrants(
    seed: string,
    count?: number,
    want?: { language?: string | undefined; genderAndAge?: string | undefined },
  ): Pro[];
}

const WEEK_MS = 7 * 24 * 3600 * 1000;
// 1970-01-05 was a Monday: weeks counted from it start on Mondays.
const FIRST_MONDAY_MS = 4 * 24 * 3600 * 1000;
/** One week in this many, per talent. */
export const AWAY_ONE_WEEK_IN = 8;

/** Roster over a catalogue (non-empty). */
export function createTalentRoster(deps: { pros: readonly Pro[] }): TalentRoster {
  const pros = deps.pros;
  if (pros.length === 0) throw new RangeError('talent roster needs at least one pro');

  function candidates(
    want: { language?: string | undefined; genderAndAge?: string | undefined } = {},
  ): readonly Pro[] {
    const both = pros.filter(
      (p) =>
        (!want.language || p.languages.includes(want.language)) &&
        (!want.genderAndAge || p.genderAndAge === want.genderAndAge),
    );
    if (both.length > 0) return both;
    const lang = pros.filter((p) => !want.language || p.languages.includes(want.language));
    return lang.length > 0 ? lang : pros;
  }

  return {
    talentFor(seed, want) {
      const list = candidates(want);
      return list[hash32(`talent:${seed}`) % list.length]!;
    },
    awayUntil(publicId, now) {
      const week = Math.floor((now.getTime() - FIRST_MONDAY_MS) / WEEK_MS);
      if (hash32(`away:${publicId}:${week}`) % AWAY_ONE_WEEK_IN !== 0) return null;
      return new Date(FIRST_MONDAY_MS + (week + 1) * WEEK_MS);
    },
    contestEntrants(seed, count = 3, want) {
      const list = candidates(want);
      // Order candidates by a per-contest hash: a stable shuffle without repeats.
      return [...list]
        .map((p) => ({ p, k: hash32(`contest:${seed}:${p.publicId}`) }))
        .sort((a, b) => a.k - b.k || (a.p.publicId < b.p.publicId ? -1 : 1))
        .slice(0, Math.min(count, list.length))
        .map((x) => x.p);
    },
  };
}
