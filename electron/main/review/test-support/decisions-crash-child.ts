/**
 * The app's decisions for the model-based test (decisions-model.test.ts): the real database file, the real store and
 * the app's API client (its own retry policy, shorter waits) against the fault proxy the test owns. The test runs it
 * in a process of its own when a schedule kills the app (SIGKILL at any step of a drain, then started again on the
 * same file), and in its own process (`startModelApp`, closed and opened again on the same file) otherwise.
 *
 * It answers one line per command; every `outbox.changed` the store emits is a line too ("change <items>"), which is
 * what the Outbox screen would show, and what the test counts to pick the moment of a kill.
 *
 *   {"op":"decide","decision":…,"heard":…,"loaded":…}  → "answer ok" | "answer <error type>"
 *   {"op":"drain"}                                     → "drained"
 *
 * `loaded`: the versions the app had loaded per take (what the read mirror would hold), for "approve all".
 *
 * As a process: node --import tsx decisions-crash-child.ts; its first line on stdin is the config, then one command
 * a line. It loads its modules before the config comes, so the test can start the next one ahead of need.
 */
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { OutboxDecision, OutboxHeard } from '../../../../shared/ipc';
import { createApiClient, type ApiClient } from '../../api/client';
import { openDatabase } from '../database';
import { createDecisions, DECISIONS_MIGRATIONS } from '../decisions';
import { sendAsAsked } from '../reconcile';

export interface ModelAppConfig {
  dbPath: string;
  baseUrl: string;
  token: string;
  account: string;
  /** Added to the clock: a restart "minutes later" finds every backoff over. */
  clockOffsetMs?: number;
}

export type ModelCommand =
  | { op: 'decide'; decision: OutboxDecision; heard: OutboxHeard; loaded?: Record<string, number> }
  | { op: 'drain' };

export interface ModelApp {
  /** Runs one command; its answer line is said before it resolves. */
  handle(command: ModelCommand): Promise<void>;
  /** Closes the store, then the database (an in-process restart). */
  close(): Promise<void>;
}

/** Opens the database and the store, says what the Outbox screen reads when it opens, then "ready". */
export async function startModelApp(config: ModelAppConfig, say: (line: string) => void): Promise<ModelApp> {
  const client: ApiClient = createApiClient({
    baseUrl: config.baseUrl,
    getToken: async () => config.token,
    // The app's retry rules, with waits short enough for a test.
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    timeoutMs: 400,
  });
  let loaded: Record<string, number> = {};
  const { db } = openDatabase(config.dbPath, DECISIONS_MIGRATIONS);
  const decisions = createDecisions({
    db,
    profiles: {
      state: async () => ({ activeId: 'studio', profiles: [{ id: 'studio' } as never] }),
      get: async (id) => ({ profile: { id }, client }),
      account: async () => config.account,
    },
    onChange: (items) => say(`change ${JSON.stringify(items)}`),
    versionsLoaded: (_account, id) => loaded[id] ?? null,
    now: () => new Date(Date.now() + (config.clockOffsetMs ?? 0)),
    // Long enough that a decision's own send ends before its answer (no send is left running between commands).
    answerWithinMs: 10_000,
    // Backoffs outlast a schedule: what waits goes at the next start, which the test makes "minutes later".
    backoff: { initialMs: 60_000, maxMs: 60_000 },
  });

  say(`change ${JSON.stringify(await decisions.list())}`);
  say('ready');

  return {
    async handle(command) {
      if (command.op === 'decide') {
        loaded = command.loaded ?? {};
        const answer = await decisions
          .decide(command.decision, command.heard, (c) => sendAsAsked(c, command.decision))
          .then(
            () => 'ok',
            (error: unknown) => (error as { type?: string }).type ?? 'ERROR',
          );
        // The drain a queued decision starts ends before the answer, so nothing runs between commands.
        await decisions.drain();
        say(`answer ${answer}`);
      } else {
        await decisions.drain();
        say('drained');
      }
    },
    async close() {
      await decisions.close();
      db.close();
    },
  };
}

/** As a process: the config first, then commands, one a line. */
async function main(): Promise<void> {
  const say = (line: string) => process.stdout.write(`${line}\n`);
  let app: ModelApp | undefined;
  for await (const line of createInterface({ input: process.stdin })) {
    if (!app) app = await startModelApp(JSON.parse(line) as ModelAppConfig, say);
    else await app.handle(JSON.parse(line) as ModelCommand);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) await main();
