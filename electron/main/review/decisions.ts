/**
 * A producer's review decisions, as a state machine in the embedded database. Each decision is committed before
 * anything is sent or the producer is told it is queued, with the take it was made on: the version the producer
 * heard and the status they saw.
 *
 *   queued ──▶ sending ──▶ sent            the service has it (answered, or a read shows its effect)
 *                 │    └──▶ held           a newer version arrived, or the status no longer allows it
 *                 │    └──▶ failed         the service refused it (its words kept)
 *                 └──▶ queued              not sent (no connection, the sandbox down, a gateway 502/503/504, a 429)
 *
 * A send that may have reached the service with no answer (a timeout or reset after sending, a crash while
 * `sending`) leaves the decision *unconfirmed*: before anything is sent again the take is read, and only a read that
 * proves the decision was not applied allows a resend — a revision (a fee) is never sent twice. Within a project the
 * order is kept: later decisions wait behind one that is queued, held or failed; other projects go on.
 */
import { randomUUID } from 'node:crypto';
import type { OutboxDecision, OutboxHeard, OutboxItem, ProfilesState } from '../../../shared/ipc';
import type { ApiClient } from '../api';
import { createCoalescedTask } from '../kernel/coalesced-task';
import { localError } from '../kernel/local-error';
import { transaction, type Database } from './database';
import { changeAfterFailure, classifyFailure, type Failure } from './decision-failure';
import { earlierInLane, laneOf } from './decision-lanes';
import { decisionRows, publicView, type Row } from './decision-rows';
import { asked, checkBeforeSending, sendAsAsked, type Check } from './reconcile';

export { classifyFailure } from './decision-failure';
export { DECISIONS_MIGRATIONS } from './decision-rows';

/** Sent items kept per account for the producer to see how they went (oldest dropped first). */
const KEEP_SENT = 50;

/** What the decisions need from the profiles. */
export interface DecisionProfiles {
  state(): Promise<Pick<ProfilesState, 'activeId' | 'profiles'>>;
  /** A profile with its client (the sandbox is started if needed). */
  get(id: string): Promise<{ profile: { id: string }; client: ApiClient }>;
  /** The account a profile signs in as: its decisions belong to it, and come back when it is added again. */
  account(id: string): Promise<string>;
}

export interface DecisionsDeps {
  db: Database;
  profiles: DecisionProfiles;
  /** The active profile's items after every change. */
  onChange?: (items: OutboxItem[]) => void;
  /** A decision reached the service: the watcher looks at its project again. */
  onSent?: (decision: OutboxDecision) => void;
  /**
   * How many versions of a take were loaded for an account (the read mirror), null when none were: "approve all"
   * records it per take it covers, so a take redelivered before it is sent holds it.
   */
  versionsLoaded?: (account: string, deliverableId: string) => number | null;
  /** Names a decision's take in the producer's words; offline-safe. */
  describe?: (decision: OutboxDecision) => Promise<string>;
  now?: () => Date;
  log?: (message: string, error?: unknown) => void;
  /** How long a decision made now may wait for the service before the producer is told it is queued. */
  answerWithinMs?: number;
  /** Waits before a gateway error or a 429 is tried again (Retry-After wins when the service gives one). */
  backoff?: { initialMs?: number; maxMs?: number };
}

export interface Decisions {
  /** The active profile's account's items, oldest first. */
  list(): Promise<OutboxItem[]>;
  /** Queued, sending, held or failed decisions of the account a profile signs in as (removing it warns). */
  pendingCount(profileId: string): Promise<number>;
  /**
   * Commits the decision, then sends it through `send` unless an earlier decision of its project waits: the answer,
   * or QUEUED_OFFLINE when it waits (not sent, or no answer within `answerWithinMs`), or DECISION_NOT_SAVED when it
   * could not be committed (nothing was sent).
   */
  decide<T>(
    decision: OutboxDecision,
    heard: OutboxHeard | undefined,
    send: (client: ApiClient) => Promise<T>,
  ): Promise<T>;
  discard(id: string): Promise<OutboxItem[]>;
  /** A refused decision goes again (checked against the take first, like any other). */
  retry(id: string): Promise<OutboxItem[]>;
  /** Sends what waits, for every account that has a profile, in order. */
  drain(): Promise<void>;
  /** A real call got an answer: what waits goes. */
  noticeReachable(): void;
  /** Every item (tests). */
  items(): OutboxItem[];
  /** App quit: nothing more is started; waits for what is on its way. */
  close(): Promise<void>;
}

const QUEUED_WORDS = {
  offline:
    'The service cannot be reached: your decision is saved in the outbox and will be sent when it is back.',
  slow: 'The service is slow to answer: your decision is saved in the outbox, and it says when the service has it.',
  behind:
    'An earlier decision on this project is still waiting: this one is saved in the outbox and goes after it.',
  later: 'The service is busy: your decision is saved in the outbox and will be sent in a moment.',
  lost: 'The answer was lost on the way: your decision is saved in the outbox, and Takedesk checks with the service before anything is sent again.',
} as const;

/**
 * The client a decision is sent through: one that never sends a write again by itself after a lost answer (the
 * store reads the take first), so that a decision reaches the service at most once.
 */
const writesOnce = (client: ApiClient): ApiClient => client.once?.() ?? client;

export function createDecisions(deps: DecisionsDeps): Decisions {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const answerWithinMs = deps.answerWithinMs ?? 8_000;
  const initialMs = deps.backoff?.initialMs ?? 5_000;
  const maxMs = deps.backoff?.maxMs ?? 300_000;
  const draining = createCoalescedTask(drainOnce);
  let closed = false;
  /** Set once `close()` has waited for the sends on their way: the database may be closed after it. */
  let stopped = false;
  /** Sends under way in `decide` (close waits for them, briefly). */
  const sends = new Set<Promise<unknown>>();
  let wakeTimer: NodeJS.Timeout | undefined;
  /** Items whose send is under way in this process (a crash loses this set: the rows say what was written). */
  const inFlight = new Set<string>();

  // A decision left `sending` by a crash goes back to the queue. Whether it may have reached the service is already
  // on disk: `unconfirmed` is committed before any write goes out (a crash while only reading the take left it as
  // it was, so another device's decision is not taken for ours).
  const rows = decisionRows(db);
  rows.requeueSending();

  const rowOf = (id: string) => (stopped ? undefined : rows.one(id));

  /** "Approve all" keeps, per take it covers, the versions the producer had (0: never loaded on this computer). */
  function withVersionsHeard(
    decision: OutboxDecision,
    heard: OutboxHeard | undefined,
    account: string,
  ): OutboxHeard | undefined {
    if (decision.kind !== 'approveAll' || !heard?.reviewable || !deps.versionsLoaded) return heard;
    const versions: Record<string, number> = {};
    for (const id of heard.reviewable) versions[id] = Math.max(0, deps.versionsLoaded(account, id) ?? 0);
    return { ...heard, versions };
  }

  function update(row: Row, change: Partial<Row>): Row {
    const next = { ...row, ...change };
    // After close the database may be gone: the row stays as it was (a `sending` one is read at the next start).
    if (stopped) return next;
    rows.save(next);
    return next;
  }

  async function activeAccount(): Promise<{ account: string; profileId: string } | null> {
    try {
      const { activeId } = await deps.profiles.state();
      return { account: await deps.profiles.account(activeId), profileId: activeId };
    } catch {
      return null;
    }
  }

  async function listActive(): Promise<OutboxItem[]> {
    const active = await activeAccount();
    if (!active || stopped) return [];
    return rows.byAccount(active.account).map(publicView);
  }

  async function changed(): Promise<void> {
    if (!deps.onChange || stopped) return;
    deps.onChange(await listActive());
  }

  function prune(account: string): void {
    const sent = rows.byAccount(account).filter((r) => r.state === 'sent');
    for (const row of sent.slice(0, Math.max(0, sent.length - KEEP_SENT))) rows.remove(row.id);
  }

  /** What a failed attempt leaves (see `changeAfterFailure`): the row updated, and whether the service is away. */
  function afterFailure(row: Row, error: unknown, before: number): { row: Row; away: boolean } {
    const { change, away } = changeAfterFailure(row, error, before, now().getTime(), { initialMs, maxMs });
    return { row: update(row, change), away };
  }

  /**
   * One attempt at a waiting decision: read the take, then send only what still fits the version heard. Returns
   * whether the service is away.
   */
  async function attempt(row: Row, client: ApiClient): Promise<boolean> {
    const decision = JSON.parse(row.decision) as OutboxDecision;
    const heard = row.heard ? (JSON.parse(row.heard) as OutboxHeard) : null;
    const before = row.unconfirmed;
    row = update(row, { state: 'sending', attempts: row.attempts + 1, not_before: null });
    await changed();
    let check: Check;
    try {
      check = await checkBeforeSending(client, decision, heard, row.unconfirmed === 1);
    } catch (error) {
      // Only a read failed: nothing new was sent.
      return finish(afterFailure(row, error, before).away);
    }
    if (check.kind === 'done') {
      update(row, {
        state: 'sent',
        unconfirmed: 0,
        sent_at: now().toISOString(),
        outcome: check.outcome,
        held: null,
      });
      deps.onSent?.(decision);
      prune(row.account);
      return finish(false);
    }
    if (check.kind === 'held') {
      update(row, { state: 'held', held: JSON.stringify({ asked: asked(decision), service: check.reason }) });
      return finish(false);
    }
    // Write-ahead: from here a crash or a lost answer leaves it unconfirmed, to be read before any resend.
    row = update(row, { unconfirmed: 1 });
    try {
      const outcome = await sendAsAsked(writesOnce(client), decision);
      update(row, { state: 'sent', unconfirmed: 0, sent_at: now().toISOString(), outcome, held: null });
      deps.onSent?.(decision);
      prune(row.account);
      return finish(false);
    } catch (error) {
      return finish(afterFailure(row, error, before).away);
    }

    async function finish(away: boolean): Promise<boolean> {
      await changed();
      return away;
    }
  }

  async function drainOnce(): Promise<void> {
    clearTimeout(wakeTimer);
    const accounts = rows.waitingAccounts();
    const seen = new Set<string>();
    let wakeAt = Infinity;
    for (const { account } of accounts) {
      if (seen.has(account) || closed) continue;
      seen.add(account);
      const profileId = await profileOf(account);
      if (!profileId) continue; // the account was removed: its decisions wait for it to be added again
      let client: ApiClient;
      try {
        client = (await deps.profiles.get(profileId)).client;
      } catch {
        continue;
      }
      const awayLanes = new Set<string>();
      for (;;) {
        if (closed) return;
        // One read of the account's rows per pass: the lanes' order is judged from it, not read again per row.
        const all = rows.byAccount(account);
        const waiting = all.filter(
          (r) => r.state === 'queued' && !inFlight.has(r.id) && !awayLanes.has(r.lane),
        );
        const at = now().getTime();
        const next = waiting.find((r) => !earlierInLane(r, all) && (r.not_before ?? 0) <= at);
        for (const r of waiting)
          if (r.not_before && r.not_before > at) wakeAt = Math.min(wakeAt, r.not_before);
        if (!next) break;
        inFlight.add(next.id);
        let away: boolean;
        try {
          away = await attempt(next, client);
        } finally {
          inFlight.delete(next.id);
        }
        // The service is away or busy: its lane waits for the next drain; with no answer at all, the whole account.
        const after = rowOf(next.id);
        if (away && after?.not_before) awayLanes.add(next.lane);
        else if (away) break;
      }
    }
    if (wakeAt !== Infinity && !closed) {
      wakeTimer = setTimeout(() => void drain(), Math.max(50, wakeAt - now().getTime()));
      wakeTimer.unref();
    }
  }

  /** The profile that now signs in as `account`, preferring the active one. */
  async function profileOf(account: string): Promise<string | null> {
    const state = await deps.profiles.state();
    const ids = [state.activeId, ...state.profiles.map((p) => p.id).filter((id) => id !== state.activeId)];
    for (const id of ids) {
      try {
        if ((await deps.profiles.account(id)) === account) return id;
      } catch {
        // a profile whose token cannot be read does not match
      }
    }
    return null;
  }

  function drain(): Promise<void> {
    if (closed) return Promise.resolve();
    return draining.run();
  }

  async function find(id: string): Promise<Row> {
    const active = await activeAccount();
    const row = rowOf(id);
    if (!row || row.account !== active?.account)
      throw localError('NOT_FOUND_LOCAL', 'This item is no longer in the outbox.');
    return row;
  }

  const queued = (why: keyof typeof QUEUED_WORDS) => localError('QUEUED_OFFLINE', QUEUED_WORDS[why]);

  return {
    list: listActive,
    async pendingCount(profileId) {
      const account = await deps.profiles.account(profileId);
      return rows.byAccount(account).filter((r) => r.state !== 'sent').length;
    },
    async decide<T>(
      decision: OutboxDecision,
      heard: OutboxHeard | undefined,
      send: (client: ApiClient) => Promise<T>,
    ): Promise<T> {
      const active = await activeAccount();
      if (!active) throw localError('PROFILE_NOT_FOUND', 'No account is active.');
      const subject = await (deps.describe?.(decision) ?? Promise.resolve('')).catch(() => '');
      const id = randomUUID();
      heard = withVersionsHeard(decision, heard, active.account);
      const lane = laneOf(decision, heard);
      // Committed before anything is sent: what cannot be saved is said at once, and nothing goes out.
      try {
        transaction(db, () =>
          rows.insert({
            id,
            account: active.account,
            profile_id: active.profileId,
            lane,
            decision: JSON.stringify(decision),
            heard: heard ? JSON.stringify(heard) : null,
            subject,
            state: 'queued',
            queued_at: now().toISOString(),
          }),
        );
      } catch (error) {
        deps.log?.('a decision could not be saved', error);
        throw localError(
          'DECISION_NOT_SAVED',
          `Your decision could not be saved on this computer (${(error as Error).message}), so it was not sent. What you typed is still in the form.`,
        );
      }
      const row = rowOf(id)!;
      if (earlierInLane(row, rows.byAccount(row.account))) {
        await changed();
        void drain();
        throw queued('behind');
      }
      let client: ApiClient;
      try {
        client = (await deps.profiles.get(active.profileId)).client;
      } catch (error) {
        afterFailure(row, error, 0);
        await changed();
        throw queued('offline');
      }
      // Write-ahead: from here a crash or a lost answer leaves it unconfirmed, to be read before any resend.
      update(row, { state: 'sending', attempts: 1, unconfirmed: 1 });
      inFlight.add(id);
      await changed();
      type Sent = { answer: T } | { error: unknown; waits: boolean; failure: Failure['kind'] };
      /** Set once the producer is told it waits: from then on the outbox shows how it ends. */
      let toldQueued = false;
      const sending: Promise<Sent> = (async (): Promise<Sent> => {
        try {
          const answer = await send(writesOnce(client));
          const sent = rowOf(id);
          // Answered while the producer waited: it never was in the outbox for them, so it leaves no item.
          if (sent && !toldQueued) rows.remove(id);
          else if (sent) {
            update(sent, {
              state: 'sent',
              unconfirmed: 0,
              sent_at: now().toISOString(),
              outcome: 'Sent.',
              held: null,
            });
            prune(active.account);
          }
          deps.onSent?.(decision);
          return { answer };
        } catch (error) {
          const failed = rowOf(id);
          const waits = failed ? afterFailure(failed, error, 0).row.state === 'queued' : true;
          return { error, waits, failure: classifyFailure(error).kind };
        } finally {
          inFlight.delete(id);
          await changed();
        }
      })();
      sends.add(sending);
      void sending.finally(() => sends.delete(sending));
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        sending,
        new Promise<'slow'>((resolve) => (timer = setTimeout(() => resolve('slow'), answerWithinMs))),
      ]);
      clearTimeout(timer);
      if (outcome === 'slow') {
        toldQueued = true;
        // It goes on in the background; the outbox shows how it ends.
        void sending.then((r) => ('error' in r && r.waits ? drain() : undefined));
        throw queued('slow');
      }
      if ('answer' in outcome) return outcome.answer;
      if (outcome.waits) {
        void drain();
        throw queued(
          outcome.failure === 'later' ? 'later' : outcome.failure === 'maybeSent' ? 'lost' : 'offline',
        );
      }
      // Refused at once: the producer sees the service's own words now, so nothing stays in the outbox.
      if (!stopped) rows.remove(id);
      await changed();
      throw outcome.error;
    },
    async discard(id) {
      const row = await find(id);
      if (row.state === 'sending' || inFlight.has(id))
        throw localError('VALIDATION_ERROR', 'This decision is being sent right now.');
      rows.remove(id);
      await changed();
      // What waited behind it in its project goes now.
      void drain();
      return listActive();
    },
    async retry(id) {
      const row = await find(id);
      if (row.state !== 'failed')
        throw localError('VALIDATION_ERROR', 'Only a decision the service refused can be sent again.');
      update(row, { state: 'queued', held: null, outcome: null, not_before: null });
      await changed();
      void drain();
      return listActive();
    },
    drain,
    noticeReachable() {
      if (closed) return;
      const waiting = rows.waitingAccounts().length > 0;
      if (waiting) void drain();
    },
    items: () => (stopped ? [] : rows.all().map(publicView)),
    async close() {
      closed = true;
      clearTimeout(wakeTimer);
      await draining.running()?.catch(() => undefined);
      // What is on its way gets a moment to land; what does not stays `sending` and is read at the next start.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...sends]),
        new Promise((resolve) => (timer = setTimeout(resolve, 2_000))),
      ]);
      clearTimeout(timer);
      stopped = true;
    },
  };
}
