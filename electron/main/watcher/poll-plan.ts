/**
 * Which request the watcher spends its next slot on. The service has no webhooks and no documented rate
 * limits (docs/service.md#no-published-limits), so the watcher keeps a fixed request budget whatever the size
 * of the account, and spends it where a delivery is most likely to be awaited: the project on screen, then
 * projects the producer touched or that changed within the hour, then the rest in turn.
 */

/** Pacing of the watcher; the defaults meet "within 60 s" for hot projects and "within 10 min" otherwise. */
export interface PollPolicy {
  /** Requests a minute at most while the window is shown, whatever the number of projects. */
  budgetPerMinute: number;
  /** Requests a minute at most while the window is hidden. */
  hiddenBudgetPerMinute: number;
  /** A project touched by the producer, or seen to change, within this window is hot. */
  hotWindowMs: number;
  /** How often a hot project is checked. */
  hotIntervalMs: number;
  /** How often the project on screen is checked (while the window is shown). */
  focusIntervalMs: number;
  /** How often any other project in work is checked (when the budget allows). */
  coldIntervalMs: number;
  /** How often the project list is read again (projects made elsewhere). */
  listIntervalMs: number;
  /** How often a completed project within its revision window is checked, in slots nothing in work needs. */
  completedIntervalMs: number;
  /** At least this long between two checks of completed projects, however many there are. */
  completedSpacingMs: number;
}

export const DEFAULT_POLL_POLICY: PollPolicy = {
  budgetPerMinute: 30,
  hiddenBudgetPerMinute: 12,
  hotWindowMs: 60 * 60_000,
  hotIntervalMs: 30_000,
  focusIntervalMs: 15_000,
  coldIntervalMs: 8 * 60_000,
  listIntervalMs: 10 * 60_000,
  completedIntervalMs: 60 * 60_000,
  completedSpacingMs: 30_000,
};

/** What the planner knows of one project in work. */
export interface TrackedProject {
  id: string;
  /** When the producer touched it or a change was seen; 0 for never. */
  activeAt: number;
  /** When its deliverables were last read; 0 for never. */
  checkedAt: number;
}

/** The producer's attention: the project on screen, and whether the window is shown. */
export interface Attention {
  projectId: string | null;
  visible: boolean;
}

/** How often one project is due, by the producer's attention and its recent activity. */
export function intervalOf(
  project: TrackedProject,
  attention: Attention,
  now: number,
  policy: PollPolicy,
): number {
  if (attention.visible && attention.projectId === project.id) return policy.focusIntervalMs;
  if (project.activeAt > 0 && now - project.activeAt < policy.hotWindowMs) return policy.hotIntervalMs;
  return policy.coldIntervalMs;
}

/** 0 = on screen, 1 = hot, 2 = the rest: a lower rank is served first when several are due. */
function rankOf(project: TrackedProject, attention: Attention, now: number, policy: PollPolicy): number {
  const interval = intervalOf(project, attention, now, policy);
  return interval === policy.focusIntervalMs ? 0 : interval === policy.hotIntervalMs ? 1 : 2;
}

/** The project to check now (due, best rank, longest waiting), or null, with when the next one falls due. */
export function pickProject(
  projects: Iterable<TrackedProject>,
  attention: Attention,
  now: number,
  policy: PollPolicy,
): { due: TrackedProject | null; nextDueAt: number | null } {
  let best: TrackedProject | null = null;
  let bestRank = Infinity;
  let nextDueAt: number | null = null;
  for (const project of projects) {
    const dueAt = project.checkedAt + intervalOf(project, attention, now, policy);
    if (dueAt > now) {
      if (nextDueAt === null || dueAt < nextDueAt) nextDueAt = dueAt;
      continue;
    }
    const rank = rankOf(project, attention, now, policy);
    if (rank < bestRank || (rank === bestRank && project.checkedAt < best!.checkedAt)) {
      best = project;
      bestRank = rank;
    }
  }
  return { due: best, nextDueAt: best ? now : nextDueAt };
}

/** Milliseconds between two requests at the budget that applies. */
export function slotMs(attention: Attention, policy: PollPolicy): number {
  return 60_000 / (attention.visible ? policy.budgetPerMinute : policy.hiddenBudgetPerMinute);
}
