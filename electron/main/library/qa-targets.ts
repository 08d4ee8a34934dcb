import { z } from 'zod';
import { DELIVERY_TARGET_IDS } from '../../../shared/audio/qa';
import type { ProjectQaTarget } from '../../../shared/ipc';
import type { SettingsStore } from '../profiles';
import { salvage } from '../kernel/state-recovery';

const KEY = 'qaTargets';
/** Remembered targets per profile; the oldest go first past this (a producer's projects, many times over). */
const MAX_PER_PROFILE = 2000;

/** Remembered targets as kept in the settings store: profile id -> project id -> target. */
export const StoredQaTargets = z.record(
  z.string(),
  z.record(
    z.string(),
    z.object({ target: z.enum(DELIVERY_TARGET_IDS), from: z.enum(['purpose', 'producer']) }),
  ),
);
type Targets = Record<string, ProjectQaTarget>;

function ownOf(all: Record<string, Targets>, profileId: string): Targets {
  return Object.hasOwn(all, profileId) ? all[profileId]! : {};
}

/**
 * Each project's QA target, remembered per profile: first its purpose's (so the library, which does not know
 * purposes, checks files against it too), then whatever the producer picks for it.
 */
export interface QaTargetsService {
  /** The active profile's remembered targets, by project id. */
  list(): Promise<Targets>;
  /** Remembers a target for one project of the active profile; a purpose's never replaces the producer's. */
  set(projectId: string, choice: ProjectQaTarget): Promise<Targets>;
}

/** Per-project QA targets in the settings store, keyed by profile so one account's choices never show in another. */
export function createQaTargets(deps: {
  store: SettingsStore;
  activeProfileId: () => Promise<string>;
}): QaTargetsService {
  const load = (): Record<string, Targets> => {
    // Entry by entry: one bad target is forgotten alone, not every project's.
    return salvage(StoredQaTargets, deps.store.get(KEY)).value ?? {};
  };
  return {
    async list() {
      return ownOf(load(), await deps.activeProfileId());
    },
    async set(projectId, choice) {
      const profileId = await deps.activeProfileId();
      const all = load();
      const own = ownOf(all, profileId);
      if (choice.from === 'purpose' && Object.hasOwn(own, projectId) && own[projectId]!.from === 'producer')
        return own;
      // Re-inserted last (insertion order is recency); entries, not assignments, so no id can reach a prototype.
      const entries = Object.entries(own).filter(([id]) => id !== projectId);
      entries.push([projectId, { target: choice.target, from: choice.from }]);
      const kept = Object.fromEntries(entries.slice(-MAX_PER_PROFILE));
      const others = Object.entries(all).filter(([id]) => id !== profileId);
      deps.store.set(KEY, Object.fromEntries([...others, [profileId, kept]]));
      return kept;
    },
  };
}
