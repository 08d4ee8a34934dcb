import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type * as Sqlite from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxDecision, OutboxItem } from '../../../shared/ipc';
import { createSandbox, type Sandbox } from '../../sandbox/server';
import { voiceOverService } from '../../sandbox/sample-bodies';
import { createApiClient, type ApiClient } from '../api/client';
import { startLossyProxy, type DropMode, type LossyProxy } from '../api/test-support/service-stand-ins';
import { startModelApp, type ModelAppConfig, type ModelCommand } from './test-support/decisions-crash-child';

/**
 * A model-based test of the decisions store. fast-check draws small schedules (fixed seed) of offline and online
 * decisions ("approve all" among them, with or without the takes' versions loaded), changes from "another device"
 * (approvals, revisions redelivered), deliveries of new versions, faults of the proxy in front of the sandbox (a lost
 * answer, a reset, a hang, gateway and server errors, the service down) and, in one schedule in `KILL_EVERY`, kill -9
 * of the app at seeded moments of its drains: the app is then a child process (decisions-crash-child.ts) started
 * again on the same database file after every kill; in the others it runs in this process and restarts by closing
 * and opening the same file. Whatever the schedule:
 *
 * - each decision reaches the service at most once (writes counted at the proxy);
 * - none is applied to a version the producer did not hear (the version the sandbox had when the write went by;
 *   "approve all": every take it approves was ready when chosen, at the version recorded for it);
 * - a project's decisions reach the service in the order they were made, none past one that waits;
 * - nothing committed is lost across restarts;
 * - what the Outbox screen was last told equals the store, whenever the app is idle;
 * - an own decision is never reported as another device's.
 *
 * TAKEDESK_MODEL_RUNS sets the number of schedules (default 200).
 */
const CHILD = join(import.meta.dirname, 'test-support/decisions-crash-child.ts');
const RUNS = Number(process.env.TAKEDESK_MODEL_RUNS ?? 200);
const ACCOUNT = 'https://api.example|sub:model';
const { DatabaseSync } = createRequire(import.meta.url)('node:sqlite') as typeof Sqlite;

let sandbox: Sandbox;
let device: ApiClient; // another device: straight to the sandbox
let root: string;

beforeAll(async () => {
  while (spares.length < SPARES) spares.push(spawnChild());
  sandbox = await createSandbox({ delivery: 'manual' });
  device = createApiClient({
    baseUrl: sandbox.url,
    getToken: async () => sandbox.tokens.full,
    retry: { retries: 0 },
  });
  // In memory where there is one: a kill -9 loses no written page (the kernel keeps it), and a commit costs no disk
  // flush, which otherwise takes most of a decision's time here.
  root = await mkdtemp(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'takedesk-decisions-model-'));
});
afterAll(async () => {
  for (const child of spares) child.kill('SIGKILL');
  await sandbox?.close();
  await rm(root, { recursive: true, force: true });
});

type Kind = 'approve' | 'reject' | 'revision' | 'approveAll';
type Kill = { afterChanges: number; delayMs: number } | null;
type Step =
  /** `loaded`: the producer had opened the takes' versions ("approve all" records them). */
  | { op: 'decide'; take: number; kind: Kind; offline: boolean; loaded: boolean; kill: Kill }
  | { op: 'remote'; take: number; change: 'approve' | 'revise' | 'deliver' }
  | { op: 'fault'; take: number; on: 'write' | 'read'; mode: DropMode }
  | { op: 'outage'; down: boolean }
  | { op: 'drain'; kill: Kill };

const kill = fc.option(
  fc.record({ afterChanges: fc.integer({ min: 0, max: 5 }), delayMs: fc.integer({ min: 0, max: 8 }) }),
  { freq: 3 },
);
const take = fc.integer({ min: 0, max: 2 });
const decide = (offline: fc.Arbitrary<boolean>) =>
  fc.record({
    op: fc.constant('decide' as const),
    take,
    kind: fc.constantFrom<Kind>('approve', 'reject', 'revision', 'approveAll'),
    offline,
    loaded: fc.boolean(),
    kill,
  });
const drain = fc.record({ op: fc.constant('drain' as const), kill });
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: decide(fc.boolean()) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('remote' as const),
      take,
      change: fc.constantFrom('approve' as const, 'revise' as const, 'deliver' as const),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('fault' as const),
      take,
      on: fc.constantFrom('write' as const, 'write' as const, 'read' as const),
      mode: fc.constantFrom<DropMode>(
        'after-forward',
        'before-forward',
        'hang',
        { status: 500 },
        { status: 502 },
        { status: 503 },
        { status: 504 },
        { status: 502, forward: true },
        { status: 504, forward: true },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('outage' as const), down: fc.boolean() }) },
  { weight: 2, arbitrary: drain },
);
/**
 * A schedule: decisions made offline, then anything (remote changes, faults, more decisions, outages, drains), then
 * the service back and drains, each of which may be killed.
 */
const steps: fc.Arbitrary<Step[]> = fc
  .tuple(
    fc.array(decide(fc.constant(true)), { minLength: 1, maxLength: 3 }),
    fc.array(step, { minLength: 1, maxLength: 5 }),
    fc.array(drain, { minLength: 1, maxLength: 3 }),
  )
  .map(([offline, middle, drains]) => [
    ...offline,
    ...middle,
    { op: 'outage' as const, down: false },
    ...drains,
  ]);
/**
 * One schedule in `KILL_EVERY` runs the app as a child process and kills it with SIGKILL at its seeded moments (a
 * process start costs more than the rest of a schedule); the others run it in this process, without kills, and
 * restart it by closing the store and opening the same file again.
 */
const KILL_EVERY = 10;
type Schedule = { kills: boolean; steps: Step[] };
const noKill = (s: Step): Step => ('kill' in s ? { ...s, kill: null } : s);
const schedule: fc.Arbitrary<Schedule> = fc
  .tuple(fc.integer({ min: 1, max: KILL_EVERY }), steps)
  .map(([draw, drawn]) =>
    draw === 1 ? { kills: true, steps: drawn } : { kills: false, steps: drawn.map(noKill) },
  );

/** Where the app's lines come from, and where its commands go: a child process, or this one. */
interface AppHost {
  readonly lines: AsyncIterator<string>;
  send(command: object): void;
  /** Ends it: SIGKILL for a child, a close (store, then database) in this process. */
  stop(): Promise<void>;
}

/**
 * Child processes started ahead of need, so that the next ones have loaded their modules (most of a start) while the
 * schedules without kills ran: a schedule with kills restarts its app a few times in quick succession.
 */
const SPARES = 4;
const spares: ChildProcess[] = [];
const spawnChild = () =>
  // node --import tsx (not the tsx binary), so SIGKILL hits the app's process itself, not a wrapper.
  spawn(process.execPath, ['--import', 'tsx', CHILD], { stdio: ['pipe', 'pipe', 'inherit'] });

/** The app in a process of its own (schedules that kill it): it gets its config as its first line. */
function childHost(config: object): AppHost {
  const child = spares.shift() ?? spawnChild();
  while (spares.length < SPARES) spares.push(spawnChild());
  child.stdin!.write(`${JSON.stringify(config)}\n`);
  return {
    lines: createInterface({ input: child.stdout! })[Symbol.asyncIterator](),
    send: (command) => child.stdin!.write(`${JSON.stringify(command)}\n`),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** The app in this process (schedules that do not kill it): restarts close the store and open the file again. */
function inProcessHost(config: ModelAppConfig): AppHost {
  const queue: string[] = [];
  let wake: (() => void) | null = null;
  let ended = false;
  const say = (line: string) => {
    queue.push(line);
    wake?.();
  };
  const app = startModelApp(config, say);
  let running: Promise<void> = Promise.resolve();
  return {
    lines: {
      async next(): Promise<IteratorResult<string>> {
        while (queue.length === 0 && !ended) await new Promise<void>((r) => (wake = r));
        return queue.length > 0 ? { value: queue.shift()!, done: false } : { value: undefined, done: true };
      },
    },
    send(command) {
      running = app.then((a) => a.handle(command as ModelCommand));
    },
    async stop() {
      if (ended) return;
      await running;
      await (await app).close();
      ended = true;
      wake?.();
    },
  };
}

/** The app: its lines, its last Outbox, the commands it answered. */
class App {
  private readonly host: AppHost;
  private readonly lines: AsyncIterator<string>;
  /** The last list the Outbox screen was sent. */
  shown: OutboxItem[] = [];
  /** Every item the screen was ever shown (committed, then), as last shown. */
  readonly seen: Map<string, OutboxItem>;
  private changes = 0;

  constructor(host: AppHost, seen: Map<string, OutboxItem>) {
    this.seen = seen;
    this.host = host;
    this.lines = host.lines;
  }

  /** The next line that is not a change; change lines update `shown`. Null when the process ended. */
  async next(stopAfterChanges = Infinity): Promise<string | null> {
    for (;;) {
      if (this.changes >= stopAfterChanges) return 'changes';
      const line = await this.lines.next();
      if (line.done) return null;
      if (!line.value.startsWith('change ')) return line.value;
      this.shown = JSON.parse(line.value.slice('change '.length)) as OutboxItem[];
      for (const item of this.shown) this.seen.set(item.id, item);
      this.changes++;
    }
  }

  async ready(): Promise<void> {
    expect(await this.next()).toBe('ready');
  }

  /** Sends a command; its answer, or null when `kill` ended the process first. */
  async run(command: object, killAt: Kill): Promise<string | null> {
    this.changes = 0;
    this.host.send(command);
    if (!killAt) return this.next();
    const answer = await this.next(killAt.afterChanges);
    await new Promise((r) => setTimeout(r, killAt.delayMs));
    await this.kill();
    return answer === 'changes' ? null : answer;
  }

  async kill(): Promise<void> {
    await this.host.stop();
    // Drain what the dead process had already written, so `shown` is its last word.
    for (;;) {
      const line = await this.lines.next();
      if (line.done) break;
      if (line.value.startsWith('change ')) {
        this.shown = JSON.parse(line.value.slice('change '.length)) as OutboxItem[];
        for (const item of this.shown) this.seen.set(item.id, item);
      }
    }
  }
}

interface Row {
  id: string;
  seq: number;
  lane: string;
  decision: string;
  heard: string | null;
  state: OutboxItem['state'];
  unconfirmed: number;
  outcome: string | null;
}

function readStore(path: string): Row[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return db.prepare('SELECT * FROM decisions ORDER BY seq').all() as unknown as Row[];
  } finally {
    db.close();
  }
}

/** What a decision's writes are counted under: its take, or "project:<id>" for "approve all". */
const keyOf = (decision: OutboxDecision) =>
  'deliverableId' in decision ? decision.deliverableId : `project:${decision.projectId}`;
const deliverableOf = (row: Row) => keyOf(JSON.parse(row.decision) as OutboxDecision);

/** One schedule, from fresh projects and a fresh database to the checks. */
async function runSchedule({ kills, steps }: Schedule, index: number): Promise<void> {
  const dbPath = join(root, `schedule-${index}.sqlite`);
  const proxy: LossyProxy = await startLossyProxy(sandbox.url);
  const config = { dbPath, baseUrl: proxy.url, token: sandbox.tokens.full, account: ACCOUNT };
  // Project A has two takes (one lane, so order shows); project B one.
  const a = await project(2);
  const b = await project(1);
  const takes = [...a.ids.map((id) => ({ id, projectId: a.id })), { id: b.ids[0]!, projectId: b.id }];
  /**
   * The sandbox's version count and status of each take, kept current whenever they change (the app is idle then;
   * the app's own decisions change only statuses of takes no "approve all" covers).
   */
  const versions = new Map<string, number>();
  const statuses = new Map<string, string>();
  const refreshVersions = async () => {
    for (const t of takes) {
      const read = await device.listVersions(t.id);
      versions.set(t.id, read.versions.length);
      statuses.set(t.id, read.status);
    }
  };
  await refreshVersions();
  /** Version heard by the app's decision on each take (one decision per take, so writes name their decision). */
  const heard = new Map<string, number>();
  /** "Approve all" of a project: the versions it recorded per take it covered (0: never loaded). */
  const approvedAll = new Map<string, Record<string, number>>();
  const answers = new Map<string, string | null>();
  /** Each write that went by: its take, and the version the sandbox had then. */
  const writes: Array<{ take: string; version: number }> = [];
  const wrongVersion: string[] = [];
  const forward = proxy.forwarded.push.bind(proxy.forwarded);
  proxy.forwarded.push = (...requests: string[]) => {
    for (const request of requests) {
      const all = /^PUT \/deliverables\/project\/([^/?]+)$/.exec(request);
      if (all) {
        // Every take it approves now (ready for review) was covered, at the version recorded (one, if not loaded).
        const recorded = approvedAll.get(all[1]!) ?? {};
        writes.push({ take: `project:${all[1]}`, version: 0 });
        for (const t of takes.filter((x) => x.projectId === all[1] && statuses.get(x.id) === 'reviewable')) {
          const now = versions.get(t.id)!;
          const had = recorded[t.id];
          if (had === undefined || now !== Math.max(1, had))
            wrongVersion.push(`${request} approved ${t.id} at version ${now}, recorded ${had}`);
        }
        continue;
      }
      const m = /^(?:PUT \/deliverables|POST \/revisions)\/([^/?]+)$/.exec(request);
      if (!m) continue;
      const version = versions.get(m[1]!) ?? 0;
      writes.push({ take: m[1]!, version });
      if (heard.get(m[1]!) !== version)
        wrongVersion.push(`${request} at version ${version}, heard ${heard.get(m[1]!)}`);
    }
    return forward(...requests);
  };

  const seen = new Map<string, OutboxItem>();
  const host = (c: ModelAppConfig) => (kills ? childHost(c) : inProcessHost(c));
  let app = new App(host(config), seen);
  const log: string[] = [];
  try {
    await app.ready();
    const restart = async (extra: object = {}) => {
      await app.kill();
      await new Promise((r) => setTimeout(r, 30)); // what the dead process wrote reaches the sandbox first
      checkNothingLost();
      app = new App(host({ ...config, ...extra }), seen);
      await app.ready();
      checkShown();
    };
    const checkNothingLost = () => {
      const ids = new Set(readStore(dbPath).map((r) => r.id));
      for (const id of seen.keys()) {
        if (ids.has(id)) continue;
        // Only a decision the service answered at once leaves: refused (the producer saw its words then), or taken
        // while they waited ("ok": it never was in the outbox for them). One told "queued" never leaves.
        const gone = seen.get(id);
        const answer = gone ? answers.get(keyOf(gone.decision)) : undefined;
        // Killed after the service answered and the row went, before the answer line: it was on its way then.
        if (answer === null) {
          expect(gone?.state, `${id} was committed and is gone (${log.join(' → ')})`).toBe('sending');
          continue;
        }
        expect(answer, `${id} was committed and is gone (${log.join(' → ')})`).toMatch(/^([A-Z_]+|ok)$/);
        expect(answer).not.toBe('QUEUED_OFFLINE');
      }
    };
    /** Whenever the app is idle, the Outbox shows what the store has. */
    const checkShown = () => {
      const pick = (i: {
        id: string;
        state: string;
        unconfirmed: boolean | number;
        outcome: string | null;
      }) => `${i.id}:${i.state}:${Boolean(i.unconfirmed)}:${i.outcome ?? ''}`;
      expect(app.shown.map(pick), log.join(' → ')).toEqual(readStore(dbPath).map((r) => pick(r as never)));
    };

    for (const s of steps) {
      const t = takes['take' in s ? s.take : 0]!;
      log.push(JSON.stringify(s));
      if (s.op === 'decide' && s.kind === 'approveAll') {
        // Only on a project none of whose takes the app decided yet: each take's writes name one decision.
        const mine = takes.filter((x) => x.projectId === t.projectId);
        if (mine.some((x) => heard.has(x.id))) continue;
        const reviewable = (await device.listDeliverables(t.projectId))
          .filter((d) => d.status === 'reviewable')
          .map((d) => d.id);
        if (reviewable.length === 0) continue; // the screen offers no "approve all" then
        for (const x of mine) heard.set(x.id, versions.get(x.id)!);
        const loaded = s.loaded ? Object.fromEntries(reviewable.map((id) => [id, versions.get(id)!])) : {};
        approvedAll.set(t.projectId, Object.fromEntries(reviewable.map((id) => [id, loaded[id] ?? 0])));
        await proxy.setDown(s.offline);
        const decision: OutboxDecision = { kind: 'approveAll', projectId: t.projectId };
        const answer = await app.run(
          { op: 'decide', decision, heard: { projectId: t.projectId, reviewable }, loaded },
          s.kill,
        );
        answers.set(keyOf(decision), answer?.replace(/^answer /, '') ?? null);
        if (answer === null) await restart();
        else checkShown();
      } else if (s.op === 'decide') {
        if (heard.has(t.id)) continue; // one decision per take: its writes name it
        const now = await device.getDeliverable(t.id);
        if (now.status !== 'reviewable') continue; // the screen offers no decision then
        heard.set(t.id, versions.get(t.id)!);
        await proxy.setDown(s.offline);
        const decision: OutboxDecision =
          s.kind === 'approve'
            ? { kind: 'approve', deliverableId: t.id }
            : s.kind === 'reject'
              ? { kind: 'reject', deliverableId: t.id, reason: 'Too fast' }
              : { kind: 'revision', deliverableId: t.id, instructions: `Warmer, take ${s.take}` };
        const answer = await app.run(
          {
            op: 'decide',
            decision,
            heard: { version: versions.get(t.id), status: 'reviewable', projectId: t.projectId },
          },
          s.kill,
        );
        answers.set(t.id, answer?.replace(/^answer /, '') ?? null);
        if (answer === null) await restart();
        else checkShown();
      } else if (s.op === 'remote' && s.change === 'deliver') {
        // The creative delivers what was asked of the project (our own revisions too).
        await sandbox.deliverNow(t.projectId);
        await refreshVersions();
      } else if (s.op === 'remote') {
        const now = await device.getDeliverable(t.id);
        if (now.status !== 'reviewable') continue;
        if (s.change === 'approve') await device.approveDeliverable(t.id);
        else {
          await device.createRevision(t.id, { instructions: 'From another device' });
          await sandbox.deliverNow(t.projectId);
        }
        await refreshVersions();
      } else if (s.op === 'fault') {
        if (s.on === 'read') proxy.drop('GET', `/revisions/${t.id}/versions`, s.mode);
        else {
          // Both write routes of the take, so the fault meets whichever decision is made on it.
          proxy.drop('PUT', `/deliverables/${t.id}`, s.mode);
          proxy.drop('POST', `/revisions/${t.id}`, s.mode);
          proxy.drop('PUT', `/deliverables/project/${t.projectId}`, s.mode);
        }
      } else if (s.op === 'outage') {
        await proxy.setDown(s.down);
      } else {
        const answer = await app.run({ op: 'drain' }, s.kill);
        if (answer === null) await restart();
        else checkShown();
      }
    }

    // The service back, every fault gone, the app started again minutes later: everything settles.
    proxy.clear();
    await proxy.setDown(false);
    await restart({ clockOffsetMs: 3_600_000 });
    expect(await app.run({ op: 'drain' }, null)).toBe('drained');
    checkShown();
    checkNothingLost();

    const rows = readStore(dbPath);
    const context = log.join(' → ');
    // Nothing waits with the service up: sent, or held / refused with words for the producer, or queued behind
    // one of those in its project.
    for (const row of rows) {
      if (row.state !== 'queued') expect(['sent', 'held', 'failed'], context).toContain(row.state);
      else {
        const blocked = rows.some(
          (r) => r.lane === row.lane && r.seq < row.seq && /held|failed/.test(r.state),
        );
        expect(blocked, `${row.id} still waits: ${context}`).toBe(true);
      }
    }
    // At most once.
    const count = new Map<string, number>();
    for (const w of writes) count.set(w.take, (count.get(w.take) ?? 0) + 1);
    for (const [id, n] of count) expect(n, `${id} written ${n} times: ${context}`).toBeLessThanOrEqual(1);
    // Never to a version the producer did not hear.
    expect(wrongVersion, context).toEqual([]);
    // An own decision is never "on another device"; one reported as ours went by the proxy.
    // (The other way round cannot always be told: a kill after the write-ahead, before the write left.)
    for (const row of rows) {
      const wrote = count.has(deliverableOf(row));
      if (/another device/.test(row.outcome ?? ''))
        expect(wrote, `own write called another device's: ${context}`).toBe(false);
    }
    // Per project, in order, none past one that waits.
    const order = writes.map((w) => w.take);
    for (const lane of new Set(rows.map((r) => r.lane))) {
      const inLane = rows.filter((r) => r.lane === lane);
      inLane.forEach((later, j) => {
        const at = order.indexOf(deliverableOf(later));
        if (at < 0) return;
        for (const earlier of inLane.slice(0, j)) {
          expect(earlier.state, `${later.id} went past ${earlier.id}: ${context}`).toBe('sent');
          const before = order.indexOf(deliverableOf(earlier));
          if (before >= 0) expect(before, context).toBeLessThan(at);
        }
      });
    }
  } finally {
    await app.kill();
    await proxy.close();
  }

  async function project(parts: number) {
    const created = await device.createProject({
      title: `Model ${index}-${parts}`,
      mainService: 'voice_over',
      services: [voiceOverService(Array.from({ length: parts }, (_, i) => `Part ${i + 1} of the script.`))],
    } as never);
    await sandbox.deliverNow(created.id);
    return { id: created.id, ids: (await device.listDeliverables(created.id)).map((d) => d.id) };
  }
}

describe('decisions, model-based, with kill -9', () => {
  it(`holds its invariants over ${RUNS} seeded schedules of decisions, remote changes, faults and kills`, async () => {
    let index = 0;
    await fc.assert(
      fc.asyncProperty(schedule, (steps) => runSchedule(steps, index++)),
      { seed: 20_261_126, numRuns: RUNS, endOnFailure: true },
    );
  }, 600_000);
});
