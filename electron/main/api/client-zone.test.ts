/**
 * Finding the project a create made when its answer was lost, against a sandbox on 127.0.0.1 whose clock writes
 * zone-less dates in another zone's wall clock: the docs give dates no zone, so `created >= sentAt` cannot decide
 * alone. Within the zones' reach the body that was sent decides (issue 25, item 7).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoNoZone, type CreateProjectBodyInput } from '../../../shared/api';
import { createSandbox, type Sandbox } from '../../sandbox/server';
import { voiceOverService } from '../../sandbox/sample-bodies';
import { createApiClient, type ApiClient } from './client';

const HOUR = 3_600_000;
const sentAt = Date.parse('2026-11-23T12:00:00Z');
/** Where the sandbox's wall clock stands, as an offset from UTC. */
let offset = 0;
/** The true instant the sandbox creates at. */
let instant = sentAt;
let sandbox: Sandbox;
let client: ApiClient;

beforeAll(async () => {
  sandbox = await createSandbox({ delivery: 'manual', now: () => new Date(instant + offset) });
  client = createApiClient({
    baseUrl: sandbox.url,
    getToken: async () => sandbox.tokens.full,
    retry: { sleep: async () => {}, random: () => 0 },
  });
});
afterAll(async () => {
  await sandbox?.close();
});

function order(title: string, script: string): CreateProjectBodyInput {
  return {
    title,
    mainService: 'voice_over',
    services: [voiceOverService([script])],
  } as CreateProjectBodyInput;
}

describe('findRecentProject with zone-less dates', () => {
  it('finds the project a create made when the service writes a wall clock behind UTC', async () => {
    offset = -5 * HOUR;
    instant = sentAt + 2000;
    const body = order('Zone behind', 'Fresh bread every morning.');
    const made = await client.createProject(body);
    expect(made.created < isoNoZone(new Date(sentAt))).toBe(true); // reads as five hours before it was sent
    const found = await client.findRecentProject(body.title, {
      since: isoNoZone(new Date(sentAt)),
      body: body as unknown as Record<string, unknown>,
    });
    expect(found?.id).toBe(made.id);
  });

  it('does not claim an older project of the same title that a clock ahead of UTC dates after the send', async () => {
    offset = 3 * HOUR;
    instant = sentAt - HOUR; // made an hour before the lost create, which never reached the service
    const older = order('Zone ahead', 'Last week’s script.');
    const made = await client.createProject(older);
    expect(made.created >= isoNoZone(new Date(sentAt))).toBe(true);
    const lost = order('Zone ahead', 'This week’s script.');
    const since = isoNoZone(new Date(sentAt));
    const body = lost as unknown as Record<string, unknown>;
    expect(await client.findRecentProject(lost.title, { since, body })).toBeNull();
    // The same body is found: the time alone no longer decides.
    expect((await client.findRecentProject(older.title, { since, body: older as never }))?.id).toBe(made.id);
  });
});
