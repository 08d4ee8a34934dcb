/**
 * The outbox of earlier versions (`outbox.json`) moves into the database once: every item keeps its place in the
 * order, its account, and what it had come to (a `conflict` is `held` now; one cut off while `sending` is
 * unconfirmed, so the take is read before it goes again). The file is then renamed `outbox.json.migrated` (never
 * deleted); a file that cannot be read is renamed `outbox.json.damaged-<time>` and the caller is told.
 */
import { existsSync, readFileSync, renameSync } from 'node:fs';
import type { OutboxDecision } from '../../../shared/ipc';
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

/** Moves `file`'s items into the decisions table; returns what the producer should be told, or null. */
export async function migrateOutboxFile(
  db: Database,
  file: string,
  accountOf: (profileId: string) => Promise<string>,
  now = () => new Date(),
): Promise<string | null> {
  if (!existsSync(file)) return null;
  let items: OldItem[];
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { items?: unknown };
    if (!Array.isArray(parsed.items)) throw new Error('no items');
    items = parsed.items.filter(isOldItem);
  } catch (error) {
    const copy = `${file}.damaged-${now().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(file, copy);
    return `The outbox of the previous version could not be read (${(error as Error).message}); it was kept as ${copy}.`;
  }
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
  renameSync(file, `${file}.migrated`);
  return null;
}
