import type { Deliverable } from '../../../shared/api';

/**
 * Takes and history of deliverables, derived from what the service answers (pure, table-tested). A rejected
 * deliverable is replaced by a new one with the same name (docs/service.md#rejected-takes-are-replaced), so
 * an
 * original and its replacement are told apart as takes 1 and 2 of that name.
 */

/** Where a deliverable stands among the deliverables of the same service and name. */
export interface TakeInfo {
  /** 1-based, in the service's list order (replacements arrive after what they replace). */
  take: number;
  /** How many takes share this name. */
  takes: number;
  /** The take this one replaces (the rejected one before it), if any. */
  replaces: Deliverable | null;
  /** The take that replaces this one (when this one was rejected), if any. */
  replacedBy: Deliverable | null;
}

type DeliverableRef = Pick<Deliverable, 'id' | 'serviceSubCategory' | 'name' | 'status'>;

/** Contest entries carry the pro in brackets ("Entry 1 (Ana)"); a replacement by another pro is the same entry. */
export function takeKey(d: Pick<Deliverable, 'serviceSubCategory' | 'name'>): string {
  return `${d.serviceSubCategory}\u0000${d.name.replace(/\s*\([^()]*\)\s*$/, '')}`;
}

/** Take numbers and replacement links of every deliverable, by id. */
export function takesOf<T extends DeliverableRef>(deliverables: readonly T[]): Map<string, TakeInfo> {
  const groups = new Map<string, T[]>();
  for (const d of deliverables) {
    const key = takeKey(d);
    const list = groups.get(key) ?? [];
    list.push(d);
    groups.set(key, list);
  }
  const out = new Map<string, TakeInfo>();
  for (const list of groups.values()) {
    list.forEach((d, i) => {
      const previous = list[i - 1] ?? null;
      const next = list[i + 1] ?? null;
      out.set(d.id, {
        take: i + 1,
        takes: list.length,
        replaces: previous && previous.status === 'rejected' ? (previous as unknown as Deliverable) : null,
        replacedBy: d.status === 'rejected' && next ? (next as unknown as Deliverable) : null,
      });
    });
  }
  return out;
}

/** One line of a deliverable's history. */
export interface HistoryEvent {
  kind:
    | 'replaces'
    | 'delivered'
    | 'revisionRequested'
    | 'revised'
    | 'approved'
    | 'rejected'
    | 'winner'
    | 'replacedBy';
  /** Service timestamp (ISO, maybe without a zone); null when the service does not say. */
  at: string | null;
  /** The version the event is about. */
  version?: number;
  /** Revision instructions. */
  text?: string;
  /** For replaces / replacedBy: the other take's number and id. */
  take?: number;
  deliverableId?: string;
}

/** What the history is derived from. */
export interface HistoryInput {
  versions: ReadonlyArray<{
    created?: string | null;
    instructions?: string | null;
    requested?: string | null;
  }>;
  status: string;
  /** When the status last changed, as the service (or the answer to our own action) told. */
  statusChanged: string | null;
  /** Instructions of a revision asked for and not delivered yet (from the answer to the request). */
  pendingInstructions?: string | null;
  replaces?: { take: number; id: string } | null;
  replacedBy?: { take: number; id: string; delivered: string | null } | null;
}

const DECISIONS = new Set(['approved', 'rejected', 'winner']);

/** The deliverable's history, oldest first: delivered, revisions asked and delivered, decisions, replacement. */
export function historyOf(input: HistoryInput): HistoryEvent[] {
  const events: HistoryEvent[] = [];
  const first = input.versions[0];
  if (input.replaces)
    events.push({
      kind: 'replaces',
      at: first?.created ?? null,
      take: input.replaces.take,
      deliverableId: input.replaces.id,
    });
  if (first) events.push({ kind: 'delivered', at: first.created ?? null, version: 1 });
  input.versions.slice(1).forEach((v, i) => {
    const version = i + 2;
    events.push({
      kind: 'revisionRequested',
      at: v.requested ?? null,
      version: version - 1,
      ...(v.instructions ? { text: v.instructions } : {}),
    });
    events.push({ kind: 'revised', at: v.created ?? null, version });
  });
  const latest = input.versions.length;
  if (input.status === 'revisionRequested')
    events.push({
      kind: 'revisionRequested',
      at: input.statusChanged,
      version: latest,
      ...(input.pendingInstructions ? { text: input.pendingInstructions } : {}),
    });
  else if (DECISIONS.has(input.status))
    events.push({
      kind: input.status as 'approved' | 'rejected' | 'winner',
      at: input.statusChanged,
      version: latest,
    });
  if (input.replacedBy)
    events.push({
      kind: 'replacedBy',
      at: input.replacedBy.delivered,
      take: input.replacedBy.take,
      deliverableId: input.replacedBy.id,
    });
  return events;
}

/** The producer's words for an event. */
export function historyLabel(event: HistoryEvent): string {
  switch (event.kind) {
    case 'replaces':
      return `Replaces take ${event.take}, which was rejected`;
    case 'delivered':
      return 'Version 1 delivered';
    case 'revisionRequested':
      return `Revision of version ${event.version} requested`;
    case 'revised':
      return `Version ${event.version} delivered (revised)`;
    case 'approved':
      return `Version ${event.version} approved`;
    case 'rejected':
      return `Version ${event.version} rejected`;
    case 'winner':
      return `Version ${event.version} selected as the winner`;
    case 'replacedBy':
      return `Replaced by take ${event.take}`;
  }
}
