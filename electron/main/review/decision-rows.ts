/**
 * The decisions' rows in the embedded database: the table (schema 1), its statements, and the row as the Outbox
 * screen sees it. No rule lives here: what a row's state means is decisions.ts's.
 */
import type { OutboxDecision, OutboxHeard, OutboxItem, OutboxState } from '../../../shared/ipc';
import type { Database, Migration } from './database';

/** The decisions table (schema 1 of the review database). */
export const DECISIONS_MIGRATIONS: Migration[] = [
  {
    version: 1,
    up(db) {
      db.exec(`
        CREATE TABLE decisions (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          account TEXT NOT NULL,
          profile_id TEXT NOT NULL,
          lane TEXT NOT NULL,
          decision TEXT NOT NULL,
          heard TEXT,
          subject TEXT NOT NULL DEFAULT '',
          state TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'sent', 'held', 'failed')),
          unconfirmed INTEGER NOT NULL DEFAULT 0,
          attempts INTEGER NOT NULL DEFAULT 0,
          not_before INTEGER,
          queued_at TEXT NOT NULL,
          sent_at TEXT,
          outcome TEXT,
          held TEXT
        );
        CREATE INDEX decisions_by_account ON decisions (account, state, seq);
      `);
    },
  },
];

/** One decision as stored. */
export interface Row {
  seq: number;
  id: string;
  account: string;
  profile_id: string;
  lane: string;
  decision: string;
  heard: string | null;
  subject: string;
  state: OutboxState;
  unconfirmed: number;
  attempts: number;
  not_before: number | null;
  queued_at: string;
  sent_at: string | null;
  outcome: string | null;
  held: string | null;
}

/** What the store reads and writes, as prepared statements of one open database. */
export interface DecisionRows {
  byAccount(account: string): Row[];
  one(id: string): Row | undefined;
  all(): Row[];
  /** Accounts with a queued decision, oldest first (an account may come more than once). */
  waitingAccounts(): Array<{ account: string; profile_id: string }>;
  insert(
    row: Pick<
      Row,
      'id' | 'account' | 'profile_id' | 'lane' | 'decision' | 'heard' | 'subject' | 'state' | 'queued_at'
    >,
  ): void;
  /** Writes a row's state columns (what changes after it is committed). */
  save(row: Row): void;
  remove(id: string): void;
  /** A decision left `sending` by a crash goes back to the queue. */
  requeueSending(): void;
}

export function decisionRows(db: Database): DecisionRows {
  const select = {
    byAccount: db.prepare('SELECT * FROM decisions WHERE account = ? ORDER BY seq'),
    one: db.prepare('SELECT * FROM decisions WHERE id = ?'),
    all: db.prepare('SELECT * FROM decisions ORDER BY seq'),
    waitingAccounts: db.prepare(
      `SELECT DISTINCT account, profile_id FROM decisions WHERE state = 'queued' ORDER BY seq`,
    ),
  };
  const insert = db.prepare(
    `INSERT INTO decisions (id, account, profile_id, lane, decision, heard, subject, state, queued_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const setState = db.prepare(
    `UPDATE decisions SET state = ?, unconfirmed = ?, attempts = ?, not_before = ?, sent_at = ?, outcome = ?, held = ?
     WHERE id = ?`,
  );
  const remove = db.prepare('DELETE FROM decisions WHERE id = ?');
  return {
    byAccount: (account) => select.byAccount.all(account) as unknown as Row[],
    one: (id) => select.one.get(id) as Row | undefined,
    all: () => select.all.all() as unknown as Row[],
    waitingAccounts: () => select.waitingAccounts.all() as Array<{ account: string; profile_id: string }>,
    insert(row) {
      insert.run(
        row.id,
        row.account,
        row.profile_id,
        row.lane,
        row.decision,
        row.heard,
        row.subject,
        row.state,
        row.queued_at,
      );
    },
    save(row) {
      setState.run(
        row.state,
        row.unconfirmed,
        row.attempts,
        row.not_before,
        row.sent_at,
        row.outcome,
        row.held,
        row.id,
      );
    },
    remove: (id) => void remove.run(id),
    requeueSending: () => db.exec(`UPDATE decisions SET state = 'queued' WHERE state = 'sending'`),
  };
}

/** A row as the Outbox screen shows it. */
export function publicView(row: Row): OutboxItem {
  return {
    id: row.id,
    profileId: row.profile_id,
    decision: JSON.parse(row.decision) as OutboxDecision,
    heard: row.heard ? (JSON.parse(row.heard) as OutboxHeard) : null,
    subject: row.subject,
    state: row.state,
    unconfirmed: row.unconfirmed === 1,
    queuedAt: row.queued_at,
    sentAt: row.sent_at,
    nextAttemptAt: row.not_before ? new Date(row.not_before).toISOString() : null,
    outcome: row.outcome,
    conflict: row.held ? (JSON.parse(row.held) as { asked: string; service: string }) : null,
  };
}
