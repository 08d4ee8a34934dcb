/**
 * The outbox of earlier versions (`outbox.json`) moves into the database once: every item keeps its place in the
 * order, its account, and what it had come to (a `conflict` is `held` now; one cut off while `sending` is
 * unconfirmed, so the take is read before it goes again). The file is then renamed `outbox.json.migrated` (never
 * deleted). A damaged file is read under the state-file rule (state-recovery.ts): a copy of its bytes is kept, the
 * items that can be read are moved in, and the producer is told once what was lost.
 */
import { existsSync, renameSync } from 'node:fs';
import { z } from 'zod';
import type { OutboxDecision } from '../../../shared/ipc';
import { recoverStateFile, type StateNotices } from '../kernel/state-recovery';
import { transaction, type Database } from './database';

interface OldItem {
  id: string;
  profileId: string;
  decision: OutboxDecision;
  subject?: string;
  state: string;
  queuedAt: string;
  sentAt?: string | null;
  outcome?: string | null;
  conflict?: { asked: string; service: string } | null;
}

const isOldItem = (v: unknown): v is OldItem => {
  const o = v as Partial<OldItem> | null;
  return (
    !!o &&
    typeof o.id === 'string' &&
    typeof o.profileId === 'string' &&
    typeof o.state === 'string' &&
    typeof o.queuedAt === 'string' &&
    !!o.decision &&
    typeof (o.decision as { kind?: unknown }).kind === 'string'
  );
};

/** The old file; a bad item is dropped alone. */
const OldFileSchema = z.object({
  version: z.number().optional(),
  items: z.array(z.custom<OldItem>(isOldItem)),
});

/** Moves `file`'s items into the decisions table (once: the file is renamed after). Returns how many moved. */
export async function migrateOutboxFile(
  db: Database,
  file: string,
  accountOf: (profileId: string) => Promise<string>,
  notices?: StateNotices,
): Promise<number> {
  if (!existsSync(file)) return 0;
  const recovered = recoverStateFile(file, OldFileSchema, {
    label: 'The outbox file',
    ...(notices ? { notices } : {}),
  });
  const items = recovered.value?.items ?? [];
  const accounts = new Map<string, string>();
  for (const item of items) {
    if (accounts.has(item.profileId)) continue;
    accounts.set(item.profileId, await accountOf(item.profileId).catch(() => `profile:${item.profileId}`));
  }
  const insert = db.prepare(
    `INSERT OR IGNORE INTO decisions
       (id, account, profile_id, lane, decision, heard, subject, state, unconfirmed, queued_at, sent_at, outcome, held)
     VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?)`,
  );
  transaction(db, () => {
    for (const item of items) {
      const d = item.decision;
      const lane = 'projectId' in d ? `project:${d.projectId}` : `deliverable:${d.deliverableId}`;
      const state =
        item.state === 'conflict'
          ? 'held'
          : item.state === 'sending'
            ? 'queued'
            : ['queued', 'sent', 'failed'].includes(item.state)
              ? item.state
              : 'queued';
      insert.run(
        item.id,
        accounts.get(item.profileId)!,
        item.profileId,
        lane,
        JSON.stringify(d),
        item.subject ?? '',
        state,
        item.state === 'sending' ? 1 : 0,
        item.queuedAt,
        item.sentAt ?? null,
        item.outcome ?? null,
        item.conflict ? JSON.stringify(item.conflict) : null,
      );
    }
  });
  if (existsSync(file)) renameSync(file, `${file}.migrated`);
  return items.length;
}
