import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutboxDecision, OutboxHeard } from '../../../shared/ipc';
import { createSandbox, type Sandbox } from '../../sandbox/server';
import { voiceOverService } from '../../sandbox/sample-bodies';
import { createApiClient, type ApiClient } from '../api/client';
import { sandboxControl, startLossyProxy, type LossyProxy } from '../api/test-support/service-stand-ins';
import { openDatabase, type Database } from './database';
import { classifyFailure, createDecisions, DECISIONS_MIGRATIONS, type Decisions } from './decisions';
import { migrateOutboxFile } from './migrate-outbox';
import { DATABASE_MIGRATIONS } from './migrations';
import { createMirror, type Mirror } from './mirror';
import { createStateNotices } from '../kernel/state-recovery';

/**
 * The decisions store against a real sandbox, through a fault proxy on 127.0.0.1 that refuses connections, hangs,
 * answers as a gateway, or forwards a request and drops its answer. "Another device" talks to the sandbox directly.
 */
let dir: string;
let sandbox: Sandbox;
let proxy: LossyProxy;
let device: ApiClient; // another device: straight to the sandbox
let app: ApiClient; // Takedesk: through the proxy
let db: Database;
let decisions: Decisions;
/** Profiles as the store sees them; `account` maps profile ids to accounts. */
let profileIds: string[];
let activeId: string;
const accounts = new Map<string, string>();
let sandboxDown = false;

const token = () => sandbox.tokens.full;

function start(
  options: { answerWithinMs?: number; versionsLoaded?: (account: string, id: string) => number | null } = {},
): Decisions {
  decisions = createDecisions({
    db,
    versionsLoaded: options.versionsLoaded,
    profiles: {
      state: async () => ({ activeId, profiles: profileIds.map((id) => ({ id }) as never) }),
      get: async (id) => {
        if (sandboxDown)
          throw Object.assign(new Error('The sandbox service stopped'), { type: 'SANDBOX_UNAVAILABLE' });
        return { profile: { id }, client: app };
      },
      account: async (id) => {
        const account = accounts.get(id);
        if (!account) throw Object.assign(new Error('no such profile'), { type: 'PROFILE_NOT_FOUND' });
        return account;
      },
    },
    answerWithinMs: options.answerWithinMs ?? 5_000,
    backoff: { initialMs: 50, maxMs: 200 },
  });
  return decisions;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'takedesk-decisions-'));
  sandbox = await createSandbox({ delivery: 'manual' });
  proxy = await startLossyProxy(sandbox.url);
  device = createApiClient({ baseUrl: sandbox.url, getToken: async () => token(), retry: { retries: 0 } });
  app = createApiClient({
    baseUrl: proxy.url,
    getToken: async () => token(),
    retry: { retries: 0 },
    timeoutMs: 1_500,
  });
  db = openDatabase(join(dir, 'takedesk.sqlite'), DECISIONS_MIGRATIONS).db;
  profileIds = ['studio'];
  activeId = 'studio';
  accounts.clear();
  accounts.set('studio', 'https://api.example|sub:42');
  sandboxDown = false;
  start();
});

afterEach(async () => {
  await decisions.close();
  db.close();
  await proxy.close();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

/** A project with `parts` delivered takes; their ids. */
async function deliveredTakes(parts = 1) {
  const project = await device.createProject({
    title: `Decisions ${Math.random().toString(36).slice(2, 8)}`,
    mainService: 'voice_over',
    services: [voiceOverService(Array.from({ length: parts }, (_, i) => `Part ${i + 1} of the script.`))],
  } as never);
  await sandbox.deliverNow(project.id);
  const takes = await device.listDeliverables(project.id);
  return { projectId: project.id, ids: takes.map((t) => t.id) };
}

/** A project with one delivered take; its id. */
async function deliveredTake() {
  const { projectId, ids } = await deliveredTakes();
  return { projectId, take: ids[0]! };
}

const heardV1 = (projectId: string): OutboxHeard => ({ version: 1, status: 'reviewable', projectId });
const writes = (method: string, path: string) =>
  proxy.forwarded.filter((r) => r === `${method} ${path}`).length;
const queuedType = async (p: Promise<unknown>) =>
  ((await p.catch((e: unknown) => e)) as { type?: string }).type;
const stateOf = (id?: string) => {
  const items = decisions.items();
  return (id ? items.find((i) => i.id === id) : items.at(-1))!;
};

/** Makes a decision the way the handlers do: the send closure is the direct call. */
function decide(decision: OutboxDecision, heard: OutboxHeard | undefined) {
  return decisions.decide<unknown>(decision, heard, (client): Promise<unknown> => {
    switch (decision.kind) {
      case 'approve':
        return client.approveDeliverable(decision.deliverableId);
      case 'revision':
        return client.createRevision(decision.deliverableId, { instructions: decision.instructions });
      case 'reject':
        return client.rejectDeliverable(decision.deliverableId, { reason: decision.reason });
      case 'approveAll':
        return client.approveAll(decision.projectId);
      default:
        throw new Error('not used here');
    }
  });
}

/** Waits past the store's backoff (at most 200 ms in these tests), then drains the queue. */
async function drainPastBackoff() {
  await new Promise((r) => setTimeout(r, 250));
  await decisions.drain();
}

/** Expects the last decision queued as maybe sent (its answer lost), then drains past its backoff. */
async function drainMaybeSent() {
  expect(stateOf()).toMatchObject({ state: 'queued', unconfirmed: true });
  await drainPastBackoff();
}

/** A delivered take with a revision of version 1 asked while the service is away (it stays away): queued. */
async function revisionQueuedOffline() {
  const { projectId, take } = await deliveredTake();
  await proxy.setDown(true);
  await decide({ kind: 'revision', deliverableId: take, instructions: 'Warmer' }, heardV1(projectId)).catch(
    () => undefined,
  );
  return { projectId, take };
}

/** Decides, and expects the decision queued ("QUEUED_OFFLINE") rather than sent. */
async function expectQueued(decision: OutboxDecision, projectId: string) {
  expect(await queuedType(decide(decision, heardV1(projectId)))).toBe('QUEUED_OFFLINE');
}

/** Expects the last decision sent with `outcome`, its write having reached the service exactly once. */
function expectSentOnce(method: string, path: string, outcome: string) {
  expect(stateOf()).toMatchObject({ state: 'sent', outcome });
  expect(writes(method, path)).toBe(1);
}

describe('a decision is never applied to a version the producer did not hear', () => {
  it('approve of version 1 made offline is held when version 2 arrived meanwhile', async () => {
    const { projectId, take } = await deliveredTake();
    await proxy.setDown(true);
    expect(await queuedType(decide({ kind: 'approve', deliverableId: take }, heardV1(projectId)))).toBe(
      'QUEUED_OFFLINE',
    );
    expect(stateOf()).toMatchObject({ state: 'queued', unconfirmed: false, heard: { version: 1 } });
    // Another device asks a revision; the creative delivers version 2.
    await device.createRevision(take, { instructions: 'Slower, please' });
    await sandbox.deliverNow(projectId);
    await proxy.setDown(false);
    await decisions.drain();
    expect(stateOf()).toMatchObject({
      state: 'held',
      conflict: {
        asked: 'Approve',
        service: 'Version 2 arrived after you approved version 1 — listen, then decide again.',
      },
    });
    expect((await device.getDeliverable(take)).status).toBe('reviewable');
    expect(writes('PUT', `/deliverables/${take}`)).toBe(0);
  });

  it('a revision of version 1 made offline is held too, and discarding it frees the project', async () => {
    const { projectId, take } = await revisionQueuedOffline();
    await device.createRevision(take, { instructions: 'Brighter' });
    await sandbox.deliverNow(projectId);
    await proxy.setDown(false);
    await decisions.drain();
    const item = stateOf();
    expect(item.state).toBe('held');
    expect(writes('POST', `/revisions/${take}`)).toBe(0);
    await decisions.discard(item.id);
    expect(decisions.items()).toHaveLength(0);
  });
});

describe('"approve all" made offline is never applied to a version the producer did not hear', () => {
  const ACCOUNT = 'https://api.example|sub:42';
  let mirrorDb: Database;
  let mirror: Mirror;

  /** The store as services.ts wires it: the versions a take had come from the read mirror. */
  function startWithMirror() {
    mirrorDb = openDatabase(join(dir, 'mirror.sqlite'), DATABASE_MIGRATIONS).db;
    mirror = createMirror(mirrorDb);
    start({
      versionsLoaded: (account, id) => {
        const read = mirror.readVersions(account, id);
        return read ? Math.max(1, read.versions.length) : null;
      },
    });
  }
  beforeEach(async () => {
    await decisions.close();
    startWithMirror();
  });
  afterEach(() => mirrorDb.close());

  /** The producer opens the takes: their versions pass the handlers into the mirror. */
  const load = async (ids: string[]) => {
    for (const id of ids) mirror.versions(ACCOUNT, await device.listVersions(id));
  };
  const approveAllOffline = async (projectId: string, ids: string[]) => {
    await proxy.setDown(true);
    expect(await queuedType(decide({ kind: 'approveAll', projectId }, { projectId, reviewable: ids }))).toBe(
      'QUEUED_OFFLINE',
    );
  };
  /** Another device asks a revision of a take; the creative delivers version 2, ready for review again. */
  const redeliver = async (projectId: string, id: string) => {
    await device.createRevision(id, { instructions: 'Slower, please' });
    await sandbox.deliverNow(projectId);
    expect(await device.getDeliverable(id)).toMatchObject({ status: 'reviewable' });
  };
  const statuses = async (projectId: string) =>
    (await device.listDeliverables(projectId)).map((d) => d.status);

  it('a take redelivered before the drain: held, naming the take and its new version; nothing approved', async () => {
    const { projectId, ids } = await deliveredTakes(2);
    await load(ids);
    await approveAllOffline(projectId, ids);
    expect(stateOf().heard).toEqual({ projectId, reviewable: ids, versions: { [ids[0]!]: 1, [ids[1]!]: 1 } });
    await redeliver(projectId, ids[1]!);
    await proxy.setDown(false);
    await decisions.drain();
    expect(stateOf()).toMatchObject({
      state: 'held',
      conflict: {
        asked: 'Approve all',
        service:
          'Voice over · part 2 has a version 2 that arrived after you chose Approve all — listen, then decide again.',
      },
    });
    expect(writes('PUT', `/deliverables/project/${projectId}`)).toBe(0);
    expect(await statuses(projectId)).toEqual(['reviewable', 'reviewable']);
  });

  it('nothing redelivered: it goes, and every take is approved', async () => {
    const { projectId, ids } = await deliveredTakes(2);
    await load(ids);
    await approveAllOffline(projectId, ids);
    await proxy.setDown(false);
    await decisions.drain();
    expect(stateOf()).toMatchObject({ state: 'sent', outcome: 'Approved 2 deliverables.' });
    expect(writes('PUT', `/deliverables/project/${projectId}`)).toBe(1);
    expect(await statuses(projectId)).toEqual(['approved', 'approved']);
  });

  it('versions never loaded here and the take has one version: it goes', async () => {
    const one = await deliveredTakes(1);
    await approveAllOffline(one.projectId, one.ids);
    expect(stateOf().heard?.versions).toEqual({ [one.ids[0]!]: 0 });
    await proxy.setDown(false);
    await decisions.drain();
    expect(stateOf()).toMatchObject({ state: 'sent' });
  });

  it('versions never loaded here and the take now has two: held, since which one was heard cannot be told', async () => {
    const two = await deliveredTakes(1);
    await approveAllOffline(two.projectId, two.ids);
    await redeliver(two.projectId, two.ids[0]!);
    await proxy.setDown(false);
    await decisions.drain();
    expect(stateOf()).toMatchObject({
      state: 'held',
      conflict: {
        service: expect.stringMatching(/^Voice over · part 1 has 2 versions, and Takedesk cannot tell/),
      },
    });
    expect(await statuses(two.projectId)).toEqual(['reviewable']);
  });

  it('a take ready that approve all did not cover holds it too', async () => {
    const { projectId, ids } = await deliveredTakes(2);
    await load(ids);
    await approveAllOffline(projectId, [ids[0]!]);
    await proxy.setDown(false);
    await decisions.drain();
    expect(stateOf()).toMatchObject({
      state: 'held',
      conflict: { service: 'A take arrived after you approved all — listen, then decide again.' },
    });
    expect(await statuses(projectId)).toEqual(['reviewable', 'reviewable']);
  });

  it('a decision stored before the versions were recorded (no versions) goes as it did then', async () => {
    const { projectId, ids } = await deliveredTakes(2);
    await decisions.close();
    start(); // no versions recorded, as in an earlier version's rows
    await approveAllOffline(projectId, ids);
    expect(stateOf().heard).toEqual({ projectId, reviewable: ids });
    await redeliver(projectId, ids[1]!);
    await proxy.setDown(false);
    await decisions.drain();
    expect(stateOf()).toMatchObject({ state: 'sent' });
  });
});

describe('a decision on a take that changed status is held, not sent', () => {
  it('a revision queued on a take another device approved meanwhile is held (a revision of approved work costs)', async () => {
    const { take } = await revisionQueuedOffline();
    await device.approveDeliverable(take);
    await proxy.setDown(false);
    await decisions.drain();
    expect(stateOf()).toMatchObject({
      state: 'held',
      conflict: {
        service:
          'The take is approved now (it was ready for review when you decided) — open it, then decide again.',
      },
    });
    expect(writes('POST', `/revisions/${take}`)).toBe(0);
  });
});

describe('a revision is never sent twice', () => {
  it('its answer lost, the creative delivers: the drain confirms it from the service and sends nothing', async () => {
    const { projectId, take } = await deliveredTake();
    proxy.drop('POST', `/revisions/${take}`, 'after-forward');
    await expectQueued({ kind: 'revision', deliverableId: take, instructions: 'Warmer' }, projectId);
    expect(stateOf()).toMatchObject({ state: 'queued', unconfirmed: true });
    await sandbox.deliverNow(projectId); // version 2, made from our revision
    await drainPastBackoff();
    expect(stateOf()).toMatchObject({
      state: 'sent',
      outcome: 'Sent — confirmed by the service.',
      unconfirmed: false,
    });
    expect(writes('POST', `/revisions/${take}`)).toBe(1);
    expect((await device.listVersions(take)).versions).toHaveLength(2);
  });

  it('after a crash while sending, the restart reads first: what the service has counts as sent', async () => {
    const { projectId, take } = await deliveredTake();
    proxy.drop('POST', `/revisions/${take}`, 'hang');
    const pending = decide(
      { kind: 'revision', deliverableId: take, instructions: 'Warmer' },
      heardV1(projectId),
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(stateOf()).toMatchObject({ state: 'sending' });
    // The app dies here (the row stays `sending`); meanwhile the request did reach the service.
    await device.createRevision(take, { instructions: 'Warmer' });
    void pending.catch(() => undefined);
    await decisions.close();
    // What kill -9 at that moment leaves on disk: the row as it was committed before the send.
    db.exec(`UPDATE decisions SET state = 'sending', unconfirmed = 1, not_before = NULL`);
    start();
    expect(stateOf()).toMatchObject({ state: 'queued', unconfirmed: true });
    await decisions.drain();
    expect(stateOf()).toMatchObject({ state: 'sent', outcome: 'Sent — confirmed by the service.' });
    expect(writes('POST', `/revisions/${take}`)).toBe(0);
  });

  // Found by the model-based test (decisions-model.test.ts): the restart took every `sending` row as maybe sent.
  it("a crash while only reading the take: after the restart, another device's approval is not taken for ours", async () => {
    const { projectId, take } = await deliveredTake();
    await proxy.setDown(true);
    await decide({ kind: 'approve', deliverableId: take }, heardV1(projectId)).catch(() => undefined);
    await decisions.drain();
    await decisions.close();
    // What kill -9 during the read before sending leaves on disk: `sending`, nothing written yet.
    db.exec(`UPDATE decisions SET state = 'sending', not_before = NULL`);
    await device.approveDeliverable(take); // another device
    await proxy.setDown(false);
    start();
    await decisions.drain();
    expect(stateOf()).toMatchObject({
      state: 'sent',
      outcome: 'Already approved (on another device or in the web app).',
    });
    expect(writes('PUT', `/deliverables/${take}`)).toBe(0);
  });

  it('unconfirmed, and the read proves it was not applied: sent once more, once', async () => {
    const { projectId, take } = await deliveredTake();
    proxy.drop('POST', `/revisions/${take}`, 'before-forward'); // reset: may or may not have arrived
    await decide({ kind: 'revision', deliverableId: take, instructions: 'Warmer' }, heardV1(projectId)).catch(
      () => undefined,
    );
    await drainMaybeSent();
    expectSentOnce('POST', `/revisions/${take}`, 'Revision requested.');
    expect((await device.getDeliverable(take)).status).toBe('revisionRequested');
  });
});

describe('a rejection or an approval (a PUT) is never sent twice either', () => {
  // Found by the model-based test (decisions-model.test.ts): the app's client sends a write again after a lost
  // answer, so the decision reached the service twice without the read that must come before any resend.
  it("its answer lost, the app's retrying client does not send it again: the drain reads, and confirms it", async () => {
    app = createApiClient({
      baseUrl: proxy.url,
      getToken: async () => token(),
      retry: { baseDelayMs: 5, maxDelayMs: 20 }, // the app's retry rules, short waits
      timeoutMs: 1_500,
    });
    const { projectId, take } = await deliveredTake();
    proxy.drop('PUT', `/deliverables/${take}`, 'after-forward');
    await expectQueued({ kind: 'reject', deliverableId: take, reason: 'Too fast' }, projectId);
    expect(writes('PUT', `/deliverables/${take}`)).toBe(1);
    await drainMaybeSent();
    expectSentOnce('PUT', `/deliverables/${take}`, 'Sent — confirmed by the service.');
    expect((await device.getDeliverable(take)).status).toBe('rejected');
  });
});

describe('order and gateways', () => {
  it('a transient 500 on a revision holds back "approve all" of the same project; another project goes on', async () => {
    const first = await deliveredTakes(2);
    const other = await deliveredTakes();
    await proxy.setDown(true);
    await decide(
      { kind: 'revision', deliverableId: first.ids[0]!, instructions: 'Again' },
      heardV1(first.projectId),
    ).catch(() => undefined);
    await decide(
      { kind: 'approveAll', projectId: first.projectId },
      { projectId: first.projectId, reviewable: first.ids },
    ).catch(() => undefined);
    await decide({ kind: 'approve', deliverableId: other.ids[0]! }, heardV1(other.projectId)).catch(
      () => undefined,
    );
    await proxy.setDown(false);
    proxy.drop('POST', `/revisions/${first.ids[0]}`, { status: 500 });
    await decisions.drain();
    const [revision, all, approve] = decisions.items();
    expect(revision).toMatchObject({ state: 'queued', unconfirmed: true });
    expect(all).toMatchObject({ state: 'queued' });
    expect(approve).toMatchObject({ state: 'sent' });
    expect((await device.getDeliverable(first.ids[0]!)).status).toBe('reviewable');
    expect(writes('PUT', `/deliverables/project/${first.projectId}`)).toBe(0);
    // Once the revision is through, approve all goes — and the take in revision is not approved.
    await drainPastBackoff();
    expect(decisions.items().map((i) => i.state)).toEqual(['sent', 'sent', 'sent']);
    const statuses = (await device.listDeliverables(first.projectId)).map((d) => [d.id, d.status] as const);
    expect(new Map(statuses).get(first.ids[0]!)).toBe('revisionRequested');
    expect(new Map(statuses).get(first.ids[1]!)).toBe('approved');
  });

  it.each([502, 503, 504, 429])(
    'a gateway %i queues the decision with backoff, honouring Retry-After',
    async (status) => {
      const { projectId, ids } = await deliveredTakes();
      proxy.drop('PUT', `/deliverables/${ids[0]}`, { status, headers: { 'retry-after': '1' } });
      const before = Date.now();
      expect(await queuedType(decide({ kind: 'approve', deliverableId: ids[0]! }, heardV1(projectId)))).toBe(
        'QUEUED_OFFLINE',
      );
      const item = stateOf();
      // A 502 or 504 may come after the service acted: read before anything is sent again.
      expect(item).toMatchObject({ state: 'queued', unconfirmed: status === 502 || status === 504 });
      expect(Date.parse(item.nextAttemptAt!) - before).toBeGreaterThanOrEqual(900);
      await decisions.drain(); // too early: nothing goes
      expect(stateOf().state).toBe('queued');
      await new Promise((r) => setTimeout(r, 1_100));
      await decisions.drain();
      expect(stateOf()).toMatchObject({ state: 'sent' });
      expect((await device.getDeliverable(ids[0]!)).status).toBe('approved');
    },
  );

  // Found by the model-based test (decisions-model.test.ts): the gateway gave up, the service had acted.
  it.each([502, 504])(
    'a gateway %i after the service acted: the read confirms it as ours, never "on another device"',
    async (status) => {
      const { projectId, take } = await deliveredTake();
      proxy.drop('POST', `/revisions/${take}`, { status, forward: true });
      await expectQueued({ kind: 'revision', deliverableId: take, instructions: 'Warmer' }, projectId);
      await drainMaybeSent();
      expectSentOnce('POST', `/revisions/${take}`, 'Sent — confirmed by the service.');
    },
  );

  it('classifies failures: not sent, maybe sent, later, refused', () => {
    expect(classifyFailure({ type: 'SANDBOX_UNAVAILABLE' }).kind).toBe('notSent');
    expect(classifyFailure({ type: 'NETWORK_UNREACHABLE', details: { maybeDelivered: false } }).kind).toBe(
      'notSent',
    );
    expect(classifyFailure({ type: 'TIMEOUT', details: { maybeDelivered: true } }).kind).toBe('maybeSent');
    expect(classifyFailure({ type: 'HTTP_503', status: 503 }).kind).toBe('later');
    expect(classifyFailure({ type: 'RATE_LIMITED', status: 429, retryAfterMs: 7 })).toEqual({
      kind: 'later',
      waitMs: 7,
      maybeApplied: false,
    });
    expect(classifyFailure({ type: 'HTTP_504', status: 504 })).toMatchObject({ maybeApplied: true });
    expect(classifyFailure({ type: 'INTERNAL_ERROR', status: 500 }).kind).toBe('maybeSent');
    expect(classifyFailure({ type: 'DELIVERABLE_NOT_REVIEWABLE', status: 422, message: 'no' })).toEqual({
      kind: 'refused',
      message: 'no',
    });
  });
});

describe('no decision is lost without a word', () => {
  it('answered while the producer waits, a decision leaves no outbox item; one told "queued" shows how it ended', async () => {
    start({ answerWithinMs: 400 });
    const { projectId, ids } = await deliveredTakes(2);
    await decide({ kind: 'approve', deliverableId: ids[0]! }, heardV1(projectId));
    expect(decisions.items()).toEqual([]);
    expect((await device.getDeliverable(ids[0]!)).status).toBe('approved');
    // Slow: the producer is told it waits, and the outbox keeps the item until it is sent.
    await sandboxControl(sandbox.url, token(), 'POST', '/_sandbox/faults', {
      latencyMs: 900,
      pathPrefix: '/deliverables/',
    });
    expect(await queuedType(decide({ kind: 'approve', deliverableId: ids[1]! }, heardV1(projectId)))).toBe(
      'QUEUED_OFFLINE',
    );
    await sandboxControl(sandbox.url, token(), 'DELETE', '/_sandbox/faults');
    for (let i = 0; i < 50 && stateOf()?.state !== 'sent'; i++) await new Promise((r) => setTimeout(r, 50));
    expect(stateOf()).toMatchObject({ state: 'sent', outcome: 'Sent.' });
  });

  it('made while the embedded sandbox is down: queued, then sent when it is back', async () => {
    const { projectId, ids } = await deliveredTakes();
    sandboxDown = true;
    expect(await queuedType(decide({ kind: 'approve', deliverableId: ids[0]! }, heardV1(projectId)))).toBe(
      'QUEUED_OFFLINE',
    );
    expect(stateOf().state).toBe('queued');
    sandboxDown = false;
    await decisions.drain();
    expect(stateOf().state).toBe('sent');
  });

  it('made while the service hangs: "queued" within the answer time, then settled when the service answers', async () => {
    start({ answerWithinMs: 300 });
    const { projectId, ids } = await deliveredTakes();
    proxy.drop('PUT', `/deliverables/${ids[0]}`, 'hang');
    const began = Date.now();
    expect(await queuedType(decide({ kind: 'approve', deliverableId: ids[0]! }, heardV1(projectId)))).toBe(
      'QUEUED_OFFLINE',
    );
    expect(Date.now() - began).toBeLessThan(1_000);
    // The client gives up after 1.5 s: unconfirmed, then read and sent once.
    await new Promise((r) => setTimeout(r, 2_000));
    await decisions.drain();
    expect(stateOf()).toMatchObject({ state: 'sent' });
    expect((await device.getDeliverable(ids[0]!)).status).toBe('approved');
  });

  it('a decision that cannot be committed says so at once, and nothing is sent', async () => {
    const { projectId, ids } = await deliveredTakes();
    db.exec('PRAGMA query_only = ON'); // as a full disk or a locked file refuses the write
    const error = (await decide({ kind: 'approve', deliverableId: ids[0]! }, heardV1(projectId)).catch(
      (e: unknown) => e,
    )) as {
      type: string;
      message: string;
    };
    db.exec('PRAGMA query_only = OFF');
    expect(error.type).toBe('DECISION_NOT_SAVED');
    expect(error.message).toMatch(/not sent.*still in the form/);
    expect(writes('PUT', `/deliverables/${ids[0]}`)).toBe(0);
    expect(decisions.items()).toHaveLength(0);
  });

  it("an account's decisions wait while its profile is removed, and come back when the same account is added again", async () => {
    const { projectId, ids } = await deliveredTakes();
    await proxy.setDown(true);
    await decide({ kind: 'approve', deliverableId: ids[0]! }, heardV1(projectId)).catch(() => undefined);
    await decisions.drain(); // settles the drain the queued decision started (the service is still away)
    expect(await decisions.pendingCount('studio')).toBe(1);
    // Removed: the Sandbox is active, the studio's decision is neither shown nor sent.
    profileIds = ['sandbox'];
    activeId = 'sandbox';
    accounts.delete('studio');
    accounts.set('sandbox', 'sandbox');
    await proxy.setDown(false);
    await decisions.drain();
    expect(await decisions.list()).toEqual([]);
    expect(decisions.items()[0]!.state).toBe('queued');
    // The same account added again under a new profile: its decision is back and goes.
    profileIds = ['sandbox', 'studio-2'];
    activeId = 'studio-2';
    accounts.set('studio-2', 'https://api.example|sub:42');
    expect((await decisions.list()).map((i) => i.state)).toEqual(['queued']);
    await decisions.drain();
    expect((await decisions.list())[0]).toMatchObject({ state: 'sent' });
  });

  it('committed decisions survive a restart', async () => {
    const { projectId, ids } = await deliveredTakes();
    await proxy.setDown(true);
    await decide(
      { kind: 'revision', deliverableId: ids[0]!, instructions: 'Keep\nthe line breaks' },
      heardV1(projectId),
    ).catch(() => undefined);
    await decisions.close();
    db.close();
    db = openDatabase(join(dir, 'takedesk.sqlite'), DECISIONS_MIGRATIONS).db;
    start();
    expect(decisions.items()[0]).toMatchObject({
      state: 'queued',
      decision: { kind: 'revision', instructions: 'Keep\nthe line breaks' },
      heard: { version: 1 },
    });
  });
});

describe('the database and the old outbox file', () => {
  it('a damaged database is kept as a copy and a fresh one starts, saying so', async () => {
    const path = join(dir, 'broken.sqlite');
    await writeFile(path, 'this is not a database, it is half a file');
    const opened = openDatabase(path, DECISIONS_MIGRATIONS);
    expect(opened.reset).toMatch(/kept as .*broken\.sqlite\.damaged-/);
    const copy = /kept as (\S+),/.exec(opened.reset!)![1]!;
    expect(await readFile(copy, 'utf8')).toBe('this is not a database, it is half a file');
    expect((opened.db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(1);
    opened.db.close();
  });

  it('moves outbox.json into the database once, keeping order and state (conflict → held, sending → unconfirmed)', async () => {
    const file = join(dir, 'outbox.json');
    const item = (id: string, state: string, decision: object) => ({
      id,
      profileId: 'studio',
      decision,
      subject: id,
      state,
      queuedAt: '2026-11-20T10:00:00.000Z',
      sentAt: null,
      outcome: null,
      conflict: state === 'conflict' ? { asked: 'Approve', service: 'approved' } : null,
    });
    await writeFile(
      file,
      JSON.stringify({
        version: 1,
        items: [
          item('a', 'queued', { kind: 'approve', deliverableId: 'd1' }),
          item('b', 'sending', { kind: 'revision', deliverableId: 'd2', instructions: 'x' }),
          item('c', 'conflict', { kind: 'approveAll', projectId: 'p1' }),
        ],
      }),
    );
    expect(await migrateOutboxFile(db, file, async (id) => accounts.get(id)!)).toBe(3);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.migrated`)).toBe(true);
    expect(decisions.items().map((i) => [i.id, i.state, i.unconfirmed])).toEqual([
      ['a', 'queued', false],
      ['b', 'queued', true],
      ['c', 'held', false],
    ]);
    expect((await decisions.list()).map((i) => i.id)).toEqual(['a', 'b', 'c']);

    // Damaged: what can be read moves in, a copy of the bytes is kept, the producer is told once.
    const fifth = JSON.stringify(item('d', 'queued', { kind: 'approve', deliverableId: 'd9' }));
    await writeFile(file, `{"items": [${fifth}, {"id": "e`);
    const notices = createStateNotices();
    expect(await migrateOutboxFile(db, file, async (id) => accounts.get(id)!, notices)).toBe(1);
    const [notice] = notices.take();
    expect(notice).toMatchObject({
      file: 'outbox.json',
      copy: expect.stringMatching(/outbox\.damaged-.*\.json$/),
    });
    expect(await readFile(notice!.copy!, 'utf8')).toMatch(/"id": "e$/);
    expect(decisions.items().map((i) => i.id)).toEqual(['a', 'b', 'c', 'd']);
  });
});
