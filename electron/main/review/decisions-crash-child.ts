/**
 * The decisions store in a process of its own, for the model-based test (decisions-model.test.ts): the real
 * database file, the real store and the app's API client (its own retry policy, shorter waits) against the fault
 * proxy the test owns, so that the test can SIGKILL it at any step of a drain and start it again on the same file.
 *
 * It reads one command per line on stdin and answers one line per command on stdout; every `outbox.changed` the
 * store emits is a line too ("change <items>"), which is what the Outbox screen would show, and what the test
 * counts to pick the moment of a kill.
 *
 *   {"op":"decide","decision":…,"heard":…}  → "answer ok" | "answer <error type>"
 *   {"op":"drain"}                          → "drained"
 *
 * Run: node --import tsx decisions-crash-child.ts '<json config>' (the test bundles it first, to start fast).
 */
import { createInterface } from 'node:readline';
import type { OutboxDecision, OutboxHeard } from '../../../shared/ipc';
import { createApiClient, type ApiClient } from '../api/client';
import { openDatabase } from './database';
import { createDecisions, DECISIONS_MIGRATIONS } from './decisions';
import { sendAsAsked } from './reconcile';

interface Config {
  dbPath: string;
  baseUrl: string;
  token: string;
  account: string;
  /** Added to the clock: a restart "minutes later" finds every backoff over. */
  clockOffsetMs?: number;
}

type Command = { op: 'decide'; decision: OutboxDecision; heard: OutboxHeard } | { op: 'drain' };

const config = JSON.parse(process.argv[2] ?? '{}') as Config;
const say = (line: string) => process.stdout.write(`${line}\n`);

const client: ApiClient = createApiClient({
  baseUrl: config.baseUrl,
  getToken: async () => config.token,
  // The app's retry rules, with waits short enough for a test.
  retry: { baseDelayMs: 5, maxDelayMs: 20 },
  timeoutMs: 400,
});
const { db } = openDatabase(config.dbPath, DECISIONS_MIGRATIONS);
const decisions = createDecisions({
  db,
  profiles: {
    state: async () => ({ activeId: 'studio', profiles: [{ id: 'studio' } as never] }),
    get: async (id) => ({ profile: { id }, client }),
    account: async () => config.account,
  },
  onChange: (items) => say(`change ${JSON.stringify(items)}`),
  now: () => new Date(Date.now() + (config.clockOffsetMs ?? 0)),
  // Long enough that a decision's own send ends before its answer (no send is left running between commands).
  answerWithinMs: 10_000,
  // Backoffs outlast a schedule: what waits goes at the next start, which the test makes "minutes later".
  backoff: { initialMs: 60_000, maxMs: 60_000 },
});

// What the Outbox screen reads when it opens.
say(`change ${JSON.stringify(await decisions.list())}`);
say('ready');

for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line) as Command;
  if (command.op === 'decide') {
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
}
