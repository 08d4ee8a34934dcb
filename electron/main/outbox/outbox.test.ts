import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxItem, Result } from '../../../shared/ipc';
import { createSandbox, type Sandbox } from '../../sandbox/server';
import { createServices, type Services } from '../services';
import { testServicesOptions } from '../test-world';
import { voiceOverService } from '../../sandbox/sample-bodies';

/**
 * The outbox through the router, against a real sandbox that is stopped and started again on the same port with
 * the same state: decisions made while it is away wait, survive a restart of main, and are sent in order when it
 * answers again, each checked against what the service has by then.
 */
describe('offline outbox', () => {
  let dir: string;
  let sandbox: Sandbox | null = null;
  let port = 0;
  let token = '';
  let url = '';
  let services: Services;
  const changes: OutboxItem[][] = [];

  const startSandbox = async () => {
    sandbox = await createSandbox({ delivery: 'manual', dataDir: join(dir, 'sandbox'), port });
    port = Number(new URL(sandbox.url).port);
    url = sandbox.url;
    token = sandbox.tokens.full;
  };
  const startMain = async () => {
    services = await createServices({
      ...testServicesOptions(join(dir, 'data'), join(dir, 'Library')),
      externalSandbox: { url, token },
    });
    services.events.attach((event, payload) => {
      if (event === 'outbox.changed') changes.push(payload as OutboxItem[]);
    });
  };
  const call = async <T>(channel: string, input?: unknown) =>
    (await services.router.invoke(channel, input, { transport: 'browser' })) as Result<T>;
  const value = async <T>(channel: string, input?: unknown): Promise<T> => {
    const result = await call<T>(channel, input);
    if (!result.ok) throw new Error(`${channel}: ${result.error.type} ${result.error.message}`);
    return result.value;
  };
  /** Changes the service's state as another device would, straight through its API. */
  const elsewhere = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'x-access-token': token, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBeLessThan(300);
  };
  const settled = async () => {
    for (let i = 0; i < 200; i++) {
      const items = await value<OutboxItem[]>('outbox.list');
      if (!items.some((item) => item.state === 'queued' || item.state === 'sending')) return items;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the outbox did not settle');
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'takedesk-outbox-'));
    await startSandbox();
    await startMain();
  });
  afterAll(async () => {
    await services.dispose();
    await sandbox?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('queues decisions made offline, keeps them across a restart, and sends them in order, reconciled', async () => {
    const project = await value<{ id: string }>('projects.create', {
      body: {
        title: 'Outbox flow',
        mainService: 'voice_over',
        services: [voiceOverService(['One.', 'Two.', 'Three.', 'Four.', 'Five.'])],
      },
    });
    await sandbox!.deliverNow(project.id);
    const { items } = await value<{ items: Array<{ id: string; name: string }> }>('deliverables.list', {
      projectId: project.id,
    });
    const [d1, d2, d3, d4, d5] = [...items].sort((a, b) => a.name.localeCompare(b.name));

    await sandbox!.close();
    sandbox = null;

    const approve = await call('deliverables.approve', { id: d1!.id });
    expect(approve).toMatchObject({ ok: false, error: { type: 'QUEUED_OFFLINE', status: 0 } });
    const note = '[0:02.1] a little slower here, please';
    const revision = await call('revisions.create', { deliverableId: d2!.id, instructions: note });
    expect(revision).toMatchObject({ ok: false, error: { type: 'QUEUED_OFFLINE' } });
    // Earlier decisions still wait: this one queues behind them at once, whatever the network says.
    expect(await call('deliverables.approve', { id: d3!.id })).toMatchObject({
      ok: false,
      error: { type: 'QUEUED_OFFLINE' },
    });
    expect(await call('deliverables.reject', { id: d4!.id, reasonCode: 'no_longer_needed' })).toMatchObject({
      ok: false,
      error: { type: 'QUEUED_OFFLINE' },
    });
    // The service will refuse this one (an unknown reason): it is queued all the same.
    expect(await call('deliverables.reject', { id: d5!.id, reasonCode: 'not_a_code' })).toMatchObject({
      ok: false,
      error: { type: 'QUEUED_OFFLINE' },
    });
    const queued = await value<OutboxItem[]>('outbox.list');
    expect(queued.map((i) => [i.decision.kind, i.state])).toEqual([
      ['approve', 'queued'],
      ['revision', 'queued'],
      ['approve', 'queued'],
      ['reject', 'queued'],
      ['reject', 'queued'],
    ]);
    expect(queued[0]!.subject).toBe('“1” in Outbox flow');
    // The file in the data folder holds the typed note.
    expect(await readFile(join(dir, 'data', 'outbox.json'), 'utf8')).toContain(note);

    // Main restarts while the service is still away: the items are still there, in order, note included.
    await services.dispose();
    changes.length = 0;
    await startMain();
    const restored = await value<OutboxItem[]>('outbox.list');
    expect(restored.map((i) => i.id)).toEqual(queued.map((i) => i.id));
    expect(restored[1]!.decision).toMatchObject({ kind: 'revision', instructions: note });

    // The service comes back; meanwhile another device approved d2 (conflict with the revision) and d3 (the same).
    await startSandbox();
    await elsewhere('PUT', `/deliverables/${d2!.id}`, { status: 'approved' });
    await elsewhere('PUT', `/deliverables/${d3!.id}`, { status: 'approved' });
    // A real call notices the service answers again: the queue goes.
    await value('projects.get', { id: project.id });
    const done = await settled();
    expect(done.map((i) => [i.decision.kind, i.state])).toEqual([
      ['approve', 'sent'],
      ['revision', 'conflict'],
      ['approve', 'sent'],
      ['reject', 'sent'],
      ['reject', 'failed'],
    ]);
    expect(done[0]!.outcome).toBe('Approved.');
    expect(done[1]!.conflict).toEqual({
      asked: `Revision: ${note}`,
      service: 'The deliverable is approved.',
    });
    // An approval another device already made is a success, not an error.
    expect(done[2]!.outcome).toMatch(/^Already approved/);
    expect(done[3]!.outcome).toBe('Rejected.');
    // In order: each item went out after the one before it.
    const sendingOrder = changes
      .map((list) => list.find((i) => i.state === 'sending')?.id)
      .filter((id, index, all): id is string => !!id && all.indexOf(id) === index);
    expect(sendingOrder).toEqual(queued.map((i) => i.id));

    const statuses = await value<{ items: Array<{ id: string; status: string }> }>('deliverables.list', {
      projectId: project.id,
    });
    const statusOf = (id: string) => statuses.items.find((d) => d.id === id)?.status;
    expect([statusOf(d1!.id), statusOf(d2!.id), statusOf(d3!.id), statusOf(d4!.id)]).toEqual([
      'approved',
      'approved',
      'approved',
      'rejected',
    ]);

    // Refused by the service: kept, with both sides, until the producer discards it.
    expect(done[4]!.conflict).toMatchObject({
      asked: 'Reject',
      service: expect.stringMatching(/^Refused: /),
    });
    const afterDiscard = await value<OutboxItem[]>('outbox.discard', { id: done[4]!.id });
    expect(afterDiscard.some((i) => i.id === done[4]!.id)).toBe(false);
    expect(await call('outbox.discard', { id: done[4]!.id })).toMatchObject({
      ok: false,
      error: { type: 'NOT_FOUND_LOCAL' },
    });

    // The conflict is kept until settled; "send anyway" sends the revision as typed.
    expect(await call('outbox.retry', { id: done[0]!.id })).toMatchObject({
      ok: false,
      error: { type: 'VALIDATION_ERROR' },
    });
    await value('outbox.retry', { id: done[1]!.id });
    const resent = (await settled()).find((i) => i.id === done[1]!.id)!;
    expect(resent).toMatchObject({ state: 'sent', outcome: 'Revision requested.', conflict: null });
    expect(await value('deliverables.get', { id: d2!.id })).toMatchObject({ status: 'revisionRequested' });
  }, 60_000);

  it('reconciles approve all and cancel: done elsewhere is a success, a completed project is a conflict', async () => {
    const voiceOver = (title: string) =>
      value<{ id: string }>('projects.create', {
        body: {
          title,
          mainService: 'voice_over',
          services: [voiceOverService(['One.', 'Two.'])],
        },
      });
    const toApprove = await voiceOver('Approve all offline');
    const canceledElsewhere = await voiceOver('Canceled elsewhere');
    const completedElsewhere = await voiceOver('Completed elsewhere');
    await sandbox!.deliverNow(toApprove.id);
    await sandbox!.deliverNow(completedElsewhere.id);

    await sandbox!.close();
    sandbox = null;
    for (const [channel, input] of [
      ['deliverables.approveAll', { projectId: toApprove.id }],
      [
        'projects.cancel',
        { id: canceledElsewhere.id, reason: 'Ordered twice.', reasonCode: 'no_longer_needed' },
      ],
      ['projects.cancel', { id: completedElsewhere.id, reason: '', reasonCode: 'no_longer_needed' }],
    ] as const)
      expect(await call(channel, input)).toMatchObject({ ok: false, error: { type: 'QUEUED_OFFLINE' } });
    const queued = await value<OutboxItem[]>('outbox.list');
    const mine = queued.filter((i) => i.state === 'queued');
    expect(mine.map((i) => i.decision.kind)).toEqual(['approveAll', 'cancel', 'cancel']);
    expect(mine[1]!.subject).toBe('Canceled elsewhere');

    await startSandbox();
    await elsewhere('PUT', `/projects/${canceledElsewhere.id}`, {
      status: 'canceled',
      reason: '',
      reasonCode: 'no_longer_needed',
    });
    await elsewhere('PUT', `/deliverables/project/${completedElsewhere.id}`, { status: 'approved' });
    await value('projects.list');
    const done = (await settled()).filter((i) => mine.some((m) => m.id === i.id));
    expect(done.map((i) => i.state)).toEqual(['sent', 'sent', 'conflict']);
    expect(done[0]!.outcome).toBe('Approved 2 deliverables.');
    expect(done[1]!.outcome).toMatch(/^Already canceled/);
    expect(done[2]!.conflict).toEqual({ asked: 'Cancel the project', service: 'The project is completed.' });
  }, 60_000);

  it('sends at once when the service answers, with nothing queued', async () => {
    const project = await value<{ id: string }>('projects.create', {
      body: {
        title: 'Online',
        mainService: 'voice_over',
        services: [voiceOverService(['One.'])],
      },
    });
    await sandbox!.deliverNow(project.id);
    const { items } = await value<{ items: Array<{ id: string }> }>('deliverables.list', {
      projectId: project.id,
    });
    expect(await value<{ status: string }>('deliverables.approve', { id: items[0]!.id })).toMatchObject({
      status: 'approved',
    });
    // A refusal from the service is the caller's to show, not the outbox's.
    expect(await call('deliverables.reject', { id: items[0]!.id, reasonCode: 'not_a_code' })).toMatchObject({
      ok: false,
      error: { type: 'REASON_CODE_NOT_ALLOWED' },
    });
    expect((await value<OutboxItem[]>('outbox.list')).some((i) => i.state === 'queued')).toBe(false);
  });
});
