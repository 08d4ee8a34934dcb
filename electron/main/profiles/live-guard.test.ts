/**
 * Main's last check before a live account is sent a body (issue 25): a value live-values.ts marks sandbox-only is
 * refused over the router, neither sent nor queued, while the Sandbox profile keeps its own values. The "live"
 * account here is a service profile on the real sandbox at 127.0.0.1, behind a recording proxy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Result } from '../../../shared/ipc';
import { voiceOverService } from '../../sandbox/sample-bodies';
import { startTestWorld, type TestWorld } from '../app/test-support/test-world';

let world: TestWorld;
const call = async <T = unknown>(channel: string, input?: unknown): Promise<Result<T>> =>
  (await world.services.router.invoke(channel, input, { transport: 'browser' })) as Result<T>;
const value = async <T = unknown>(channel: string, input?: unknown): Promise<T> => {
  const result = await call<T>(channel, input);
  if (!result.ok) throw new Error(`${channel}: ${result.error.type} ${result.error.message}`);
  return result.value;
};

let deliverableId = '';
let projectId = '';

beforeAll(async () => {
  world = await startTestWorld('live-guard', { record: true });
  await value('profiles.add', {
    name: 'Studio account',
    baseUrl: world.serviceUrl,
    token: world.sandbox.tokens.full,
  });
  const project = await value<{ id: string }>('projects.create', {
    body: { title: 'Guarded', mainService: 'voice_over', services: [voiceOverService(['One.', 'Two.'])] },
  });
  projectId = project.id;
  await world.sandbox.deliverNow(project.id);
  const { items } = await value<{ items: Array<{ id: string }> }>('deliverables.list', { projectId });
  deliverableId = items[0]!.id;
});
afterAll(() => world?.close());

describe('a live account is never sent a sandbox-only value', () => {
  it.each([
    ['deliverables.reject', () => ({ id: deliverableId, reason: 'Off.', reasonCode: 'wrong_accent' })],
    [
      'projects.cancel',
      () => ({ id: projectId, reason: '', reasonCode: 'change_specifications.script_change' }),
    ],
    ['revisions.create', () => ({ deliverableId, instructions: 'Slower.', reason: 'audio' })],
    ['samples.search', () => ({ categoryId: 'voice_over', currency: 'EUR' })],
    ['samples.search', () => ({ categoryId: 'voice_over', purpose: 'radioTvAds' })],
  ])('%s refuses it before sending', async (channel, input) => {
    const before = world.requests.length;
    const result = await call(channel, input());
    expect(result).toMatchObject({ ok: false, error: { type: 'SANDBOX_ONLY_VALUE' } });
    expect(world.requests.slice(before).filter((r) => !r.startsWith('GET /projects?'))).toEqual([]);
    expect(await value<unknown[]>('outbox.list')).toEqual([]);
  });

  it('sends the documented values', async () => {
    expect(
      await call('samples.search', { categoryId: 'voice_over', currency: 'USD', purpose: 1 }),
    ).toMatchObject({
      ok: true,
    });
    const rejected = await value<{ status: string }>('deliverables.reject', {
      id: deliverableId,
      reason: 'We need a younger voice.',
      reasonCode: 'genderAndAgeChange',
      newGenderAndAge: 'teenageGirl',
    });
    expect(rejected.status).toBe('rejected');
  });

  it('leaves the Sandbox profile its own values', async () => {
    await value('profiles.activate', { id: 'sandbox' });
    const { items } = await value<{ items: Array<{ id: string; status: string }> }>('deliverables.list', {
      projectId,
    });
    const next = items.find((d) => d.status === 'reviewable')!;
    const rejected = await value<{ status: string }>('deliverables.reject', {
      id: next.id,
      reason: 'Off.',
      reasonCode: 'wrong_accent',
    });
    expect(rejected.status).toBe('rejected');
  });
});
