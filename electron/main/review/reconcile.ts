/**
 * What a waiting decision meets when it is about to go: the take is read first, and the decision is sent only if it
 * still fits what the producer heard. Pure reading and sending through the API client; the state lives in
 * decisions.ts.
 */
import type { OutboxDecision, OutboxHeard } from '../../../shared/ipc';
import type { DeliverableSummary } from '../../../shared/api/schemas';
import { takeName } from '../../../shared/review/ready-batch';
import type { ApiClient } from '../api';

/** The read's verdict: already in effect, held for the producer, or to be sent now. */
export type Check = { kind: 'done'; outcome: string } | { kind: 'held'; reason: string } | { kind: 'send' };

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

/** The decision in the producer's words, for the "you asked" side of a held or refused item. */
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
    case 'winner':
      return 'Select as the contest winner';
    case 'cancel':
      return decision.reason ? `Cancel the project: ${decision.reason}` : 'Cancel the project';
  }
}

/** "approved", "rejected"… as the producer did it, for "after you approved version 1". */
const DID: Record<OutboxDecision['kind'], string> = {
  approve: 'approved',
  approveAll: 'approved all',
  reject: 'rejected',
  revision: 'asked a revision of',
  winner: 'picked',
  cancel: 'canceled',
};

/** Sends the decision as asked; the outcome in plain words. */
export async function sendAsAsked(client: ApiClient, decision: OutboxDecision): Promise<string> {
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
    case 'winner':
      await client.selectWinner(decision.deliverableId);
      return 'Selected as the contest winner.';
    case 'cancel':
      await client.cancelProject(decision.projectId, {
        reason: decision.reason,
        reasonCode: decision.reasonCode,
      });
      return 'Project canceled.';
  }
}

/** Statuses in which the service takes each decision on a take. */
const ALLOWED: Record<'approve' | 'reject' | 'revision' | 'winner', ReadonlySet<string>> = {
  approve: new Set(['reviewable']),
  reject: new Set(['reviewable']),
  winner: new Set(['reviewable']),
  // The service takes revisions of approved work too (bookings: for a while after delivery).
  revision: new Set(['reviewable', 'approved']),
};

/**
 * Reads the take and decides: `done` when the service already shows the decision's effect (ours, confirmed, when
 * `unconfirmed`; another device's otherwise), `held` when a newer version arrived or the status no longer allows
 * it, `send` otherwise. An unconfirmed decision is sent again only when the read proves it was not applied.
 */
export async function checkBeforeSending(
  client: ApiClient,
  decision: OutboxDecision,
  heard: OutboxHeard | null,
  unconfirmed: boolean,
): Promise<Check> {
  const already = (what: string): Check => ({
    kind: 'done',
    outcome: unconfirmed
      ? 'Sent — confirmed by the service.'
      : `Already ${what} (on another device or in the web app).`,
  });
  switch (decision.kind) {
    case 'approve':
    case 'reject':
    case 'revision':
    case 'winner': {
      const read = await client.listVersions(decision.deliverableId);
      const status = read.status;
      const count = Math.max(1, read.versions.length);
      const version = heard?.version ?? null;
      const effect =
        decision.kind === 'revision'
          ? (status === 'revisionRequested' && (version === null || count === version)) ||
            (version !== null &&
              count > version &&
              read.versions[version]?.instructions?.trim() === decision.instructions.trim())
          : status ===
            (decision.kind === 'approve' ? 'approved' : decision.kind === 'reject' ? 'rejected' : 'winner');
      if (effect) return already(words(decision.kind === 'revision' ? 'revisionRequested' : status));
      if (version !== null && count > version) {
        return {
          kind: 'held',
          reason: `Version ${count} arrived after you ${DID[decision.kind]} version ${version} — listen, then decide again.`,
        };
      }
      // A status other than the one the producer saw (approved elsewhere, say) is a different take to decide on.
      const moved = heard?.status !== undefined && heard.status !== status;
      if (moved || !ALLOWED[decision.kind].has(status)) {
        return {
          kind: 'held',
          reason: `The take is ${words(status)} now${heard?.status && heard.status !== status ? ` (it was ${words(heard.status)} when you decided)` : ''} — open it, then decide again.`,
        };
      }
      // Unconfirmed: the read must prove the decision was not applied (same version, a status that takes it).
      if (unconfirmed && version === null) {
        return {
          kind: 'held',
          reason: 'Takedesk cannot tell whether this reached the service: open the take, then decide again.',
        };
      }
      return { kind: 'send' };
    }
    case 'approveAll': {
      const list = await client.listDeliverables(decision.projectId);
      const reviewable = list.filter((d) => d.status === 'reviewable');
      const heardIds = heard?.reviewable ? new Set(heard.reviewable) : null;
      if (heardIds && heardIds.size > 0) {
        const mine = list.filter((d) => heardIds.has(d.id));
        if (mine.length > 0 && mine.every((d) => d.status === 'approved' || d.status === 'winner'))
          return already('approved');
      } else if (list.length > 0 && list.every((d) => d.status === 'approved' || d.status === 'winner'))
        return already('approved');
      const unheard = heardIds ? reviewable.filter((d) => !heardIds.has(d.id)) : [];
      if (unheard.length > 0) {
        return {
          kind: 'held',
          reason: `${unheard.length === 1 ? 'A take' : `${unheard.length} takes`} arrived after you approved all — listen, then decide again.`,
        };
      }
      if (reviewable.length === 0) {
        return {
          kind: 'held',
          reason:
            list.length === 0
              ? 'The project has no deliverables to approve.'
              : `Nothing is ready for review: ${summary(list.map((d) => d.status))}.`,
        };
      }
      const redelivered = await newerVersion(client, reviewable, heard?.versions);
      if (redelivered) return { kind: 'held', reason: redelivered };
      return { kind: 'send' };
    }
    case 'cancel': {
      const { status } = await client.getProject(decision.projectId);
      if (status === 'canceled') return already('canceled');
      if (status === 'completed')
        return { kind: 'held', reason: 'The project is completed: it cannot be canceled.' };
      return { kind: 'send' };
    }
  }
}

/**
 * "Approve all" approves whatever version each ready take has when it is sent: each covered take is read, and one
 * with more versions than the producer had when choosing it (redelivered after a revision asked elsewhere) holds
 * the decision — the reason in words. A take whose versions were never loaded here (recorded 0) may be sent only
 * while it has one version: which one the producer heard cannot be told otherwise. Decisions stored before the
 * versions were recorded (no `versions`) stay sendable as they were: the takes that were ready is all they hold.
 */
async function newerVersion(
  client: ApiClient,
  takes: readonly DeliverableSummary[],
  recorded: Record<string, number> | undefined,
): Promise<string | null> {
  if (!recorded) return null;
  for (const take of takes) {
    const had = recorded[take.id] ?? 0;
    const count = Math.max(1, (await client.listVersions(take.id)).versions.length);
    if (had >= 1 && count > had)
      return `${takeName(take)} has a version ${count} that arrived after you chose Approve all — listen, then decide again.`;
    if (had < 1 && count > 1)
      return `${takeName(take)} has ${count} versions, and Takedesk cannot tell which one you heard (they were not loaded on this computer when you chose Approve all) — listen, then decide again.`;
  }
  return null;
}

function summary(statuses: string[]): string {
  const counts = new Map<string, number>();
  for (const s of statuses) counts.set(words(s), (counts.get(words(s)) ?? 0) + 1);
  return [...counts].map(([w, n]) => `${n} ${w}`).join(', ');
}
