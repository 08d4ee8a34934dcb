/**
 * The offline outbox: review decisions made while the service cannot be reached wait here, per profile, in the
 * order they were made, persisted in the app data folder (atomic writes), and are sent when the service answers
 * again. Each is reconciled with the service's state first: what another device already did is a success, and a
 * state that no longer fits the decision is a conflict the producer settles. Nothing typed is dropped unless the
 * producer discards it.
 */
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import type { OutboxDecision, OutboxItem } from '../../../shared/ipc';
import type { ApiClient } from '../api/client';
import { createCoalescedTask } from '../coalesced-task';
import { localError } from '../local-error';
import { recoverStateFile, type StateNotices } from '../state-recovery';

/** Error types meaning "no answer from the service": the decision waits in the outbox. */
const UNREACHABLE = new Set(['NETWORK_UNREACHABLE', 'TIMEOUT', 'SANDBOX_UNAVAILABLE']);
/** Answers after which the item waits too: the producer signs in again, then it goes. */
const WAIT = new Set([...UNREACHABLE, 'SESSION_EXPIRED']);
/** Sent items kept for the producer to see how they went (oldest dropped first). */
const KEEP_SENT = 50;

export const isUnreachable = (error: unknown): boolean =>
  UNREACHABLE.has((error as { type?: string })?.type ?? '');

/** What the outbox needs from the profiles service. */
export interface OutboxProfiles {
  active(): Promise<{ profile: { id: string }; client: ApiClient }>;
}

export interface OutboxDeps {
  /** `<dataDir>/outbox.json`. */
  file: string;
  profiles: OutboxProfiles;
  /** The active profile's items after every change. */
  onChange?: (items: OutboxItem[]) => void;
  /** A decision reached the service: the watcher looks at its project again. */
  onSent?: (decision: OutboxDecision) => void;
  /** Names a decision's deliverable or project in the producer's words (library, listings); offline-safe. */
  describe?: (decision: OutboxDecision) => Promise<string>;
  now?: () => Date;
  log?: (message: string, error?: unknown) => void;
  /** Told what was reset when the outbox file was damaged. */
  notices?: StateNotices;
}

export interface Outbox {
  /** Loads the persisted items (every other method waits for it). */
  ready(): Promise<void>;
  /** The active profile's items, oldest first. */
  list(): Promise<OutboxItem[]>;
  /**
   * Sends `decision` now through `send`, unless earlier decisions of this profile still wait (order is kept) or the
   * service cannot be reached: then it is queued and this rejects with QUEUED_OFFLINE.
   */
  decide<T>(decision: OutboxDecision, send: (client: ApiClient) => Promise<T>): Promise<T>;
  discard(id: string): Promise<OutboxItem[]>;
  /** Sends a conflicting or refused item as asked (no state check) on the next drain, which starts now. */
  retry(id: string): Promise<OutboxItem[]>;
  /** Sends the active profile's queued items in order; stops at the first sign the service is away again. */
  drain(): Promise<void>;
  /** A real call got an answer: the service is reachable, so queued items go. */
  noticeReachable(): void;
  /** Every profile's items (tests). */
  items(): OutboxItem[];
  /** App quit: nothing more is sent (what is on its way finishes); waits for the last write. */
  close(): Promise<void>;
}

interface Persisted {
  version: 1;
  items: Array<OutboxItem & { force?: boolean }>;
}

type Stored = OutboxItem & { force?: boolean };

/** What reconciling and sending one decision came to. */
type Outcome = { sent: string } | { conflict: { asked: string; service: string } };

export function createOutbox(deps: OutboxDeps): Outbox {
  const now = deps.now ?? (() => new Date());
  let items: Stored[] = [];
  const draining = createCoalescedTask(drainOnce);
  let writes: Promise<void> = Promise.resolve();
  let closed = false;

  const loaded = (async () => {
    // A damaged file keeps a copy and costs only its bad items (state-recovery.ts); what is left is saved at once.
    const recovered = recoverStateFile(deps.file, PersistedSchema, {
      label: 'The outbox file',
      notices: deps.notices,
    });
    items = recovered.value?.items ?? [];
    // An item cut off mid-send (the app stopped) is checked again: reconciling makes a second send harmless.
    for (const item of items) if (item.state === 'sending') item.state = 'queued';
    if (recovered.damaged) await persist();
  })();

  const activeId = async (): Promise<string | null> => {
    try {
      return (await deps.profiles.active()).profile.id;
    } catch {
      return null;
    }
  };
  const publicView = ({ force: _force, ...item }: Stored): OutboxItem => ({ ...item });
  const of = (profileId: string | null) =>
    items.filter((i) => i.profileId === profileId).map((i) => publicView(i));

  /** Persists, then tells the renderer; writes are chained so the file always holds the latest list. */
  async function changed(): Promise<void> {
    await persist();
    deps.onChange?.(of(await activeId()));
  }

  function persist(): Promise<void> {
    const snapshot: Persisted = { version: 1, items };
    const json = JSON.stringify(snapshot);
    writes = writes
      .then(async () => {
        await mkdir(dirname(deps.file), { recursive: true });
        await writeFileAtomic(deps.file, json, { fsync: true });
      })
      // The items stay in memory and the next change writes them all again.
      .catch((error: unknown) => deps.log?.('the outbox could not be saved', error));
    return writes;
  }

  function prune(): void {
    const sent = items.filter((i) => i.state === 'sent');
    if (sent.length <= KEEP_SENT) return;
    const drop = new Set(sent.slice(0, sent.length - KEEP_SENT));
    items = items.filter((i) => !drop.has(i));
  }

  async function enqueue(profileId: string, decision: OutboxDecision): Promise<Stored> {
    const subject = await (deps.describe?.(decision) ?? Promise.resolve('')).catch(() => '');
    const item: Stored = {
      id: randomUUID(),
      profileId,
      decision,
      subject,
      state: 'queued',
      queuedAt: now().toISOString(),
      sentAt: null,
      outcome: null,
      conflict: null,
    };
    items.push(item);
    await changed();
    return item;
  }

  const queuedError = () =>
    localError(
      'QUEUED_OFFLINE',
      'The service cannot be reached: your decision is saved in the outbox and will be sent when it is back.',
    );

  async function drainOnce(): Promise<void> {
    let active: { profile: { id: string }; client: ApiClient };
    try {
      active = await deps.profiles.active();
    } catch {
      return;
    }
    while (!closed) {
      const item = items.find((i) => i.profileId === active.profile.id && i.state === 'queued');
      if (!item) return;
      item.state = 'sending';
      await changed();
      try {
        const outcome = item.force
          ? { sent: await sendAsAsked(active.client, item.decision) }
          : await reconcileAndSend(active.client, item.decision);
        delete item.force;
        if ('sent' in outcome) {
          Object.assign(item, { state: 'sent', outcome: outcome.sent, conflict: null, sentAt: stamp() });
          deps.onSent?.(item.decision);
        } else Object.assign(item, { state: 'conflict', conflict: outcome.conflict, outcome: null });
      } catch (error) {
        if (WAIT.has((error as { type?: string })?.type ?? '')) {
          item.state = 'queued';
          await changed();
          return;
        }
        delete item.force;
        const message = (error as Error)?.message ?? 'The service refused it.';
        Object.assign(item, {
          state: 'failed',
          outcome: null,
          conflict: { asked: asked(item.decision), service: `Refused: ${message}` },
        });
      }
      prune();
      await changed();
    }
  }

  const stamp = () => now().toISOString();

  async function drain(): Promise<void> {
    await loaded;
    if (closed) return;
    return draining.run();
  }

  async function find(id: string): Promise<Stored> {
    await loaded;
    const profileId = await activeId();
    const item = items.find((i) => i.id === id && i.profileId === profileId);
    if (!item) throw localError('NOT_FOUND_LOCAL', 'This item is no longer in the outbox.');
    return item;
  }

  return {
    ready: () => loaded,
    async list() {
      await loaded;
      return of(await activeId());
    },
    async decide(decision, send) {
      await loaded;
      const { profile, client } = await deps.profiles.active();
      const waiting = items.some(
        (i) => i.profileId === profile.id && (i.state === 'queued' || i.state === 'sending'),
      );
      // Behind decisions still waiting (the order is kept); a drain under way picks it up next.
      if (waiting) {
        await enqueue(profile.id, decision);
        throw queuedError();
      }
      try {
        return await send(client);
      } catch (error) {
        if (!isUnreachable(error)) throw error;
        await enqueue(profile.id, decision);
        throw queuedError();
      }
    },
    async discard(id) {
      const item = await find(id);
      if (item.state === 'sending')
        throw localError('VALIDATION_ERROR', 'This decision is being sent right now.');
      items = items.filter((i) => i !== item);
      await changed();
      return of(item.profileId);
    },
    async retry(id) {
      const item = await find(id);
      if (item.state !== 'conflict' && item.state !== 'failed')
        throw localError('VALIDATION_ERROR', 'Only a decision the service did not take can be sent again.');
      // Back in line where it was: its place in the order is kept.
      Object.assign(item, { state: 'queued', force: true, conflict: null, outcome: null });
      await changed();
      void drain();
      return of(item.profileId);
    },
    drain,
    noticeReachable() {
      void loaded.then(async () => {
        const profileId = await activeId();
        if (items.some((i) => i.profileId === profileId && i.state === 'queued')) await drain();
      });
    },
    items: () => items.map((i) => publicView(i)),
    async close() {
      closed = true;
      await draining.running()?.catch(() => undefined);
      await writes;
    },
  };
}

const STATUS_WORDS: Record<string, string> = {
  reviewable: 'ready for review',
  approved: 'approved',
  rejected: 'rejected',
  revisionRequested: 'in revision',
  winner: 'picked as the contest winner',
  unassigned: 'waiting for a creative',
  assigned: 'in work',
  canceled: 'canceled',
  completed: 'completed',
  paid: 'in work',
};
const words = (status: string) => STATUS_WORDS[status] ?? status;

/** The decision in the producer's words, for the "you asked" side of a conflict. */
export function asked(decision: OutboxDecision): string {
  switch (decision.kind) {
    case 'approve':
      return 'Approve';
    case 'approveAll':
      return 'Approve all';
    case 'reject':
      return decision.reason ? `Reject: ${decision.reason}` : 'Reject';
    case 'revision':
      return `Revision: ${decision.instructions}`;
    case 'cancel':
      return decision.reason ? `Cancel the project: ${decision.reason}` : 'Cancel the project';
  }
}

/** Sends the decision as asked. */
async function sendAsAsked(client: ApiClient, decision: OutboxDecision): Promise<string> {
  switch (decision.kind) {
    case 'approve':
      await client.approveDeliverable(decision.deliverableId);
      return 'Approved.';
    case 'approveAll': {
      const list = await client.approveAll(decision.projectId);
      return `Approved ${list.length === 1 ? '1 deliverable' : `${list.length} deliverables`}.`;
    }
    case 'reject': {
      const { kind: _k, deliverableId, ...params } = decision;
      await client.rejectDeliverable(deliverableId, params);
      return 'Rejected.';
    }
    case 'revision': {
      const { kind: _k, deliverableId, ...body } = decision;
      await client.createRevision(deliverableId, body);
      return 'Revision requested.';
    }
    case 'cancel':
      await client.cancelProject(decision.projectId, {
        reason: decision.reason,
        reasonCode: decision.reasonCode,
      });
      return 'Project canceled.';
  }
}

/**
 * Reads the service's state first: what is already so (another device did it) is a success, a state the decision
 * no longer fits is a conflict, and otherwise the decision is sent.
 */
export async function reconcileAndSend(client: ApiClient, decision: OutboxDecision): Promise<Outcome> {
  const conflict = (service: string): Outcome => ({ conflict: { asked: asked(decision), service } });
  switch (decision.kind) {
    case 'approve':
    case 'reject':
    case 'revision': {
      const { status } = await client.getDeliverable(decision.deliverableId);
      const done = decision.kind === 'approve' ? 'approved' : decision.kind === 'reject' ? 'rejected' : null;
      if (done && status === done) return { sent: `Already ${done} (on another device or in the web app).` };
      if (status !== 'reviewable') return conflict(`The deliverable is ${words(status)}.`);
      return { sent: await sendAsAsked(client, decision) };
    }
    case 'approveAll': {
      const list = await client.listDeliverables(decision.projectId);
      if (list.some((d) => d.status === 'reviewable')) return { sent: await sendAsAsked(client, decision) };
      if (list.length > 0 && list.every((d) => d.status === 'approved' || d.status === 'winner'))
        return { sent: 'Already approved (on another device or in the web app).' };
      return conflict(
        list.length === 0
          ? 'The project has no deliverables to approve.'
          : `Nothing is ready for review: ${summary(list.map((d) => d.status))}.`,
      );
    }
    case 'cancel': {
      const { status } = await client.getProject(decision.projectId);
      if (status === 'canceled') return { sent: 'Already canceled (on another device or in the web app).' };
      if (status === 'completed') return conflict('The project is completed.');
      return { sent: await sendAsAsked(client, decision) };
    }
  }
}

function summary(statuses: string[]): string {
  const counts = new Map<string, number>();
  for (const s of statuses) counts.set(words(s), (counts.get(words(s)) ?? 0) + 1);
  return [...counts].map(([w, n]) => `${n} ${w}`).join(', ');
}

/** The outbox file; a bad item is dropped alone. */
const PersistedSchema = z.object({
  version: z.number().optional(),
  items: z.array(z.custom<Stored>(isItem)),
});

function isItem(value: unknown): value is Stored {
  const v = value as Partial<Stored> | null;
  return (
    !!v &&
    typeof v.id === 'string' &&
    typeof v.profileId === 'string' &&
    typeof v.state === 'string' &&
    typeof v.queuedAt === 'string' &&
    !!v.decision &&
    typeof (v.decision as { kind?: unknown }).kind === 'string'
  );
}
