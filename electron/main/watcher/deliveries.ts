/**
 * What the watcher reads in a project's check: a delivered version's identity, when a project is settled or in work,
 * and which answers mean the project is gone.
 */
import type { Deliverable } from '../../../shared/api';

/** A deliverable as last seen: its status and delivered version. */
export interface Seen {
  status: string;
  signature: string;
}

/** Deliverable states no delivery follows without a user action (which pokes the watcher). */
const FINAL = new Set(['approved', 'rejected', 'winner']);
/**
 * A rejected take is replaced by a new deliverable (docs/service.md#rejected-takes-are-replaced), which may
 * not be listed yet.
 */
const KEPT = new Set(['approved', 'winner']);
/** Deliverable states that mean work under way or waiting for the producer. */
export const OPEN = new Set(['revisionRequested', 'reviewable', 'unassigned', 'assigned']);
/** Answers meaning the project is gone for this account: stop watching it. */
export const GONE = new Set(['PROJECT_NO_EXIST', 'NOT_FOUND', 'FORBIDDEN']);

/**
 * Every deliverable is final, and each take (service and name) has a kept one: a rejected take alone awaits its
 * replacement, which carries the same service and name. A service whose contest has its winner is decided: its
 * other entries lost and are not replaced (nor, if never delivered, delivered).
 */
export function isSettled(deliverables: readonly Deliverable[]): boolean {
  if (deliverables.length === 0) return false;
  const decided = new Set(deliverables.filter((d) => d.status === 'winner').map((d) => d.serviceSubCategory));
  const open = deliverables.filter((d) => !decided.has(d.serviceSubCategory));
  if (!open.every((d) => FINAL.has(d.status))) return false;
  const take = (d: Deliverable) => `${d.serviceSubCategory}\n${d.name}`;
  const kept = new Set(open.filter((d) => KEPT.has(d.status)).map(take));
  return open.every((d) => kept.has(take(d)));
}

/**
 * What identifies one delivered version: its file links without query strings (signed URLs may
 * change their signature between polls without a new delivery).
 */
export function signature(deliverable: Deliverable): string {
  const entries = Object.entries(deliverable.urls ?? {})
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([key, value]) => [key, key === 'content' ? value : value.split('?')[0]] as const)
    .sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify(entries);
}
