import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EventPayloads, SandboxStatus } from '../../../shared/ipc';
import { createSandbox, type Sandbox } from '../../sandbox/server';
import { createApiClient, type ApiClientOptions } from '../api/client';
import { sandboxControl } from '../api/test-support/service-stand-ins';
import { createFileSecretStore, createMemorySecretStore, type SecretStore } from '../secrets';
import {
  createJsonSettingsStore,
  createMemorySettingsStore,
  createProfiles,
  normalizeBaseUrl,
  readTokenClaims,
  SANDBOX_PROFILE_ID,
} from '.';
import { outcomeOf, STALL_MS } from './profiles';

let sandbox: Sandbox;
const dirs: string[] = [];
beforeAll(async () => {
  sandbox = await createSandbox({ delivery: 'manual' });
});
afterAll(async () => {
  await sandbox?.close();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

function setup(
  secrets: SecretStore = createMemorySecretStore(),
  settingsStore = createMemorySettingsStore(),
) {
  const events: EventPayloads['profile.changed'][] = [];
  let ensured = 0;
  const clientsMade: Omit<ApiClientOptions, 'getToken'>[] = [];
  const profiles = createProfiles({
    settingsStore,
    secrets,
    sandbox: {
      ensure: async () => {
        ensured++;
        return { url: sandbox.url, token: sandbox.tokens.full };
      },
    },
    apiClientFactory: (options) => {
      const { getToken: _g, ...rest } = options;
      clientsMade.push(rest);
      return createApiClient({ ...options, retry: { sleep: async () => {} } });
    },
    events: { emit: (_event, payload) => void events.push(payload) },
  });
  return { profiles, events, secrets, settingsStore, ensured: () => ensured, clientsMade };
}

/** Fails if the token appears anywhere in a value that leaves the service. */
function expectNoToken(value: unknown, token: string) {
  expect(JSON.stringify(value)).not.toContain(token);
}

describe('profiles', () => {
  it('starts with the Sandbox profile active, started on demand', async () => {
    const { profiles, ensured } = setup();
    const state = await profiles.state();
    expect(state.activeId).toBe(SANDBOX_PROFILE_ID);
    expect(state.profiles).toHaveLength(1);
    expect(state.profiles[0]).toMatchObject({
      id: 'sandbox',
      name: 'Sandbox',
      kind: 'sandbox',
      hasToken: true,
    });
    expect(state.secrets.kind).toBe('memory');
    expect(ensured()).toBe(0);

    const { profile, client } = await profiles.active();
    expect(ensured()).toBe(1);
    expect(profile.baseUrl).toBe(sandbox.url);
    expect((await client.listProjects({ pageSize: 1 })).page).toBe(1);
    expect((await profiles.active()).client).toBe(client); // cached
  });

  it('adds a pasted token after a test call, activates it, keeps the token only in the secret store', async () => {
    const { profiles, events, secrets, settingsStore } = setup();
    const token = sandbox.tokens.otherUser;
    const state = await profiles.add({ name: ' Agency ', baseUrl: `${sandbox.url}/`, token });
    const added = state.profiles.find((p) => p.kind === 'service')!;
    expect(added).toMatchObject({ name: 'Agency', baseUrl: sandbox.url, hasToken: true });
    expect(state.activeId).toBe(added.id);
    expect(events).toHaveLength(1);
    expect(events[0]!.activeId).toBe(added.id);
    expect(await secrets.get(`profile-token:${added.id}`)).toBe(token);
    expectNoToken(state, token);
    expectNoToken(events, token);
    expectNoToken(settingsStore.get('profiles'), token);

    const { profile, client } = await profiles.active();
    expect(profile.id).toBe(added.id);
    const project = await client.createProject({
      title: 'Other user project',
      mainService: 'voice_over',
      services: [{ subCategory: 'voice_over', language: 'eng-us', genderAndAge: 'child', script: 'Hi.' }],
    });
    // The active client speaks as the other user: user 1 may not read it.
    await expect(
      createApiClient({ baseUrl: sandbox.url, getToken: async () => sandbox.tokens.full }).getProject(
        project.id,
      ),
    ).rejects.toMatchObject({ type: 'FORBIDDEN' });
  });

  it('refuses a token the service rejects, saving nothing', async () => {
    const { profiles, events } = setup();
    await expect(
      profiles.add({ name: 'Bad', baseUrl: sandbox.url, token: 'not-a-token' }),
    ).rejects.toMatchObject({
      type: 'FORBIDDEN',
      status: 403,
    });
    expect((await profiles.state()).profiles).toHaveLength(1);
    expect(events).toHaveLength(0);
  });

  it('signs in with email and password; the password is kept nowhere', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'takedesk-profiles-')), 'secrets.json');
    dirs.push(join(path, '..'));
    const settingsPath = join(path, '..', 'settings.json');
    const { profiles, events } = setup(
      createFileSecretStore({ path }),
      createJsonSettingsStore({ path: settingsPath }),
    );
    const password = 'sandbox';
    const state = await profiles.signIn({
      name: 'Me',
      baseUrl: sandbox.url,
      email: 'producer@sandbox.test',
      password,
    });
    expect(state.secrets).toMatchObject({ kind: 'file', secure: false });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(await readFile(path, 'utf8')) as Record<string, string>;
    const token = Object.values(stored)[0]!;
    expect(token.length).toBeGreaterThan(10);
    expectNoToken(state, token);
    expectNoToken(events, token);
    const settings = await readFile(settingsPath, 'utf8');
    expect(settings).not.toContain(token);
    // The sandbox password ("sandbox") is also the sandbox profile's id, so look for the field instead.
    expect(settings).not.toMatch(/password/i);
    expect(JSON.stringify(stored)).not.toMatch(/password/i);
    expect(Object.values(stored)).not.toContain(password);

    // A new instance over the same files sees the same active profile.
    const again = createProfiles({
      settingsStore: createJsonSettingsStore({ path: settingsPath }),
      secrets: createFileSecretStore({ path }),
      sandbox: { ensure: async () => ({ url: sandbox.url, token: sandbox.tokens.full }) },
      events: { emit: () => {} },
    });
    const reloaded = await again.state();
    expect(reloaded.activeId).toBe(state.activeId);
    // The email is kept (not a secret) so that signing in again asks only for the password.
    expect(reloaded.profiles.find((p) => p.id === state.activeId)?.email).toBe('producer@sandbox.test');
    expect((await (await again.active()).client.listProjects({ pageSize: 1 })).page).toBe(1);
  });

  it('rejects wrong credentials with the service code', async () => {
    const { profiles } = setup();
    await expect(
      profiles.signIn({ name: 'Me', baseUrl: sandbox.url, email: 'producer@sandbox.test', password: 'nope' }),
    ).rejects.toMatchObject({ type: 'USER_NOT_FOUND', status: 401 });
  });

  it('activates and removes; the sandbox profile cannot be removed', async () => {
    const { profiles, events, secrets } = setup();
    const added = await profiles.add({ name: 'A', baseUrl: sandbox.url, token: sandbox.tokens.full });
    const id = added.activeId;
    expect((await profiles.activate(SANDBOX_PROFILE_ID)).activeId).toBe(SANDBOX_PROFILE_ID);
    expect((await profiles.activate(id)).activeId).toBe(id);
    await expect(profiles.activate('nope')).rejects.toMatchObject({ type: 'PROFILE_NOT_FOUND' });
    await expect(profiles.remove(SANDBOX_PROFILE_ID)).rejects.toMatchObject({
      type: 'PROFILE_NOT_REMOVABLE',
    });
    const after = await profiles.remove(id);
    expect(after.profiles.map((p) => p.id)).toEqual([SANDBOX_PROFILE_ID]);
    expect(after.activeId).toBe(SANDBOX_PROFILE_ID);
    expect(await secrets.get(`profile-token:${id}`)).toBeNull();
    expect(events.map((e) => e.activeId)).toEqual([id, SANDBOX_PROFILE_ID, id, SANDBOX_PROFILE_ID]);
  });

  it('shows a hung service unreachable within 5 s, while its call still waits, and reachable when it answers', async () => {
    // A service that accepts connections and never answers (a hang), then answers once let go.
    const held: Array<() => void> = [];
    const hung = createServer((_req, res) =>
      held.push(() => res.end('{"page":1,"pageSize":1,"total":0,"items":[]}')),
    );
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    try {
      const { profiles, settingsStore } = setup();
      const added = await profiles.add({
        name: 'Hung',
        baseUrl: sandbox.url,
        token: sandbox.tokens.otherUser,
      });
      const stored = settingsStore.get('profiles') as { profiles: Array<{ id: string; baseUrl: string }> };
      const { port } = hung.address() as AddressInfo;
      stored.profiles.find((p) => p.id === added.activeId)!.baseUrl = `http://127.0.0.1:${port}`;
      settingsStore.set('profiles', stored);
      const reachability = async () =>
        (await profiles.state()).profiles.find((p) => p.id === added.activeId)?.reachability;

      const started = Date.now();
      const call = (await profiles.active()).client.listProjects({ pageSize: 1 }).catch((e: unknown) => e);
      await vi.waitFor(async () => expect(await reachability()).toBe('unreachable'), {
        timeout: 5_000,
        interval: 100,
      });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(STALL_MS).toBeLessThan(5_000);
      for (const answer of held.splice(0)) answer();
      await call;
      expect(await reachability()).toBe('reachable');
    } finally {
      hung.closeAllConnections();
      await new Promise((resolve) => hung.close(resolve));
    }
  });

  it('tells each profile reachable or unreachable from its own last real call, announcing each change', async () => {
    const { profiles, events, settingsStore } = setup();
    const reachabilityOf = (state: EventPayloads['profile.changed'], id: string) =>
      state.profiles.find((p) => p.id === id)?.reachability;
    expect(reachabilityOf(await profiles.state(), SANDBOX_PROFILE_ID)).toBe('unknown');
    await (await profiles.active()).client.listProjects({ pageSize: 1 });
    expect(reachabilityOf(await profiles.state(), SANDBOX_PROFILE_ID)).toBe('reachable');

    const added = await profiles.add({ name: 'Away', baseUrl: sandbox.url, token: sandbox.tokens.otherUser });
    const id = added.activeId;
    // The account's service moves somewhere nothing answers (as a service that went down).
    const stored = settingsStore.get('profiles') as { profiles: Array<{ id: string; baseUrl: string }> };
    stored.profiles.find((p) => p.id === id)!.baseUrl = 'http://127.0.0.1:9';
    settingsStore.set('profiles', stored);
    const before = events.length;
    await expect((await profiles.active()).client.listProjects({ pageSize: 1 })).rejects.toMatchObject({
      type: 'NETWORK_UNREACHABLE',
    });
    await vi.waitFor(() => expect(events.length).toBeGreaterThan(before));
    const state = await profiles.state();
    expect(reachabilityOf(state, id)).toBe('unreachable');
    // The other profile keeps its own outcome.
    expect(reachabilityOf(state, SANDBOX_PROFILE_ID)).toBe('reachable');
    expect(reachabilityOf(events.at(-1)!, id)).toBe('unreachable');
  });

  it.each([
    [{ type: 'NETWORK_UNREACHABLE', status: 0 }, 'unreachable'],
    [{ type: 'TIMEOUT', status: 0 }, 'unreachable'],
    [{ type: 'CREATE_OUTCOME_UNKNOWN', status: 0, details: { cause: 'TIMEOUT' } }, 'unreachable'],
    [{ type: 'CREATE_OUTCOME_UNKNOWN', status: 0, details: { cause: 'UNEXPECTED_RESPONSE' } }, 'reachable'],
    [{ type: 'HTTP_503', status: 503 }, 'unreachable'],
    [{ type: 'PROJECT_NO_EXIST', status: 404 }, 'reachable'],
    [{ type: 'UNAUTHORIZED', status: 401 }, 'reachable'],
    [{ type: 'VALIDATION_ERROR', status: 0 }, null],
    [new Error('not a request'), null],
  ])('outcomeOf(%j) -> %s', (error, outcome) => {
    expect(outcomeOf(error)).toBe(outcome);
  });

  it('validates base URLs', async () => {
    expect(normalizeBaseUrl(' https://api.example.com/v1/ ')).toBe('https://api.example.com/v1');
    expect(() => normalizeBaseUrl('ftp://x')).toThrow(/https/);
    expect(() => normalizeBaseUrl('not a url')).toThrow(/full URL/);
    expect(() => normalizeBaseUrl('https://user:pw@x.com')).toThrow(/token field/);
    const { profiles } = setup();
    await expect(profiles.add({ name: 'x', baseUrl: sandbox.url, token: 'two words' })).rejects.toMatchObject(
      {
        type: 'INVALID_PROFILE',
      },
    );
    await expect(
      profiles.add({ name: 'x', baseUrl: 'javascript:alert(1)', token: 't' }),
    ).rejects.toMatchObject({
      type: 'INVALID_BASE_URL',
    });
  });
});

/** Ends every signed-in session of `sandbox` now, as a token's expiry would. */
const expireSessions = (sandbox: Sandbox) =>
  sandboxControl(sandbox.url, sandbox.tokens.full, 'POST', '/_sandbox/sessions/expire', {});

describe('an expired session (docs/service.md#tokens-expire: live tokens expire)', () => {
  let expiring: Sandbox;
  beforeAll(async () => {
    expiring = await createSandbox({ delivery: 'manual', tokenLifetimeMs: 3_600_000 });
  });
  afterAll(() => expiring?.close());

  it('turns a 401 into SESSION_EXPIRED naming the profile, shows it signed out, and signing in again fixes it', async () => {
    const { profiles, events } = setup();
    const signIn = {
      name: 'Acme',
      baseUrl: expiring.url,
      email: 'producer@sandbox.test',
      password: 'sandbox',
    };
    const state = await profiles.signIn(signIn);
    const id = state.activeId;
    const { client } = await profiles.active();
    await expect(client.listProjects({ pageSize: 1 })).resolves.toMatchObject({ page: 1 });

    await expireSessions(expiring);
    const error = await client.listProjects({ pageSize: 1 }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      type: 'SESSION_EXPIRED',
      message: 'Your session for Acme expired — sign in again.',
    });
    // The client decisions are sent through (client.once()) says so too, rather than a refusal.
    const once = await client.once!()
      .listProjects({ pageSize: 1 })
      .catch((e: unknown) => e);
    expect(once).toMatchObject({ type: 'SESSION_EXPIRED' });
    const after = await profiles.state();
    expect(after.profiles.find((p) => p.id === id)?.signedOut).toBe(true);
    expect(events.at(-1)?.profiles.find((p) => p.id === id)?.signedOut).toBe(true);

    // A wrong password changes nothing; the right one gives the profile a working token again.
    await expect(profiles.renew({ id, email: signIn.email, password: 'nope' })).rejects.toMatchObject({
      type: 'USER_NOT_FOUND',
    });
    expect((await profiles.state()).profiles.find((p) => p.id === id)?.signedOut).toBe(true);
    expect((await profiles.state()).profiles.find((p) => p.id === id)?.email).toBe(signIn.email);
    const renewed = await profiles.renew({
      id,
      email: ` ${signIn.email.toUpperCase()} `,
      password: signIn.password,
    });
    expect(renewed.profiles.find((p) => p.id === id)?.signedOut).toBe(false);
    // Signed in again under another spelling: that one is offered next time.
    expect(renewed.profiles.find((p) => p.id === id)?.email).toBe(signIn.email.toUpperCase());
    expectNoToken(renewed, expiring.tokens.full);
    await expect((await profiles.active()).client.listProjects({ pageSize: 1 })).resolves.toMatchObject({
      page: 1,
    });
  });

  it('renews with a pasted token only once the token works', async () => {
    const { profiles } = setup();
    const state = await profiles.signIn({
      name: 'Pasted',
      baseUrl: expiring.url,
      email: 'producer@sandbox.test',
      password: 'sandbox',
    });
    await expireSessions(expiring);
    await expect(profiles.renew({ id: state.activeId, token: 'not-a-token' })).rejects.toMatchObject({
      status: 403,
    });
    await expect(profiles.renew({ id: 'sandbox', token: expiring.tokens.full })).rejects.toMatchObject({
      type: 'PROFILE_NOT_FOUND',
    });
    const renewed = await profiles.renew({ id: state.activeId, token: expiring.tokens.full });
    expect(renewed.profiles.find((p) => p.id === state.activeId)?.signedOut).toBe(false);
  });
});

describe('whose session, and until when (JWT claims; a new sign-in must be the same account)', () => {
  let expiring: Sandbox;
  beforeAll(async () => {
    expiring = await createSandbox({ delivery: 'manual', tokenLifetimeMs: 7 * 86_400_000 });
  });
  afterAll(() => expiring?.close());
  const producer = { email: 'producer@sandbox.test', password: 'sandbox' };
  const other = { email: 'other@sandbox.test', password: 'sandbox' };

  it('tells when each profile’s session ends from its token’s `exp`, and nothing for a token that does not say', async () => {
    const { profiles } = setup();
    const before = Date.now();
    const signedIn = await profiles.signIn({ name: 'Studio', baseUrl: expiring.url, ...producer });
    const studio = signedIn.profiles.find((p) => p.id === signedIn.activeId)!;
    const ends = Date.parse(studio.sessionEndsAt!);
    expect(ends).toBeGreaterThanOrEqual(before + 7 * 86_400_000 - 1_000);
    expect(ends).toBeLessThanOrEqual(Date.now() + 7 * 86_400_000 + 1_000);
    // The built-in sandbox tokens carry no `exp`: no date, and nothing fails.
    const pasted = await profiles.add({
      name: 'Forever',
      baseUrl: expiring.url,
      token: expiring.tokens.full,
    });
    expect(pasted.profiles.find((p) => p.id === pasted.activeId)).not.toHaveProperty('sessionEndsAt');
    expect(pasted.profiles.find((p) => p.id === 'sandbox')).not.toHaveProperty('sessionEndsAt');
  });

  it('reads claims without checking signatures and tolerates anything that is not a JWT', () => {
    const jwt = (payload: unknown) =>
      ['e30', Buffer.from(JSON.stringify(payload)).toString('base64url'), 'sig'].join('.');
    expect(readTokenClaims(jwt({ sub: 'u1', exp: 1_780_000_000, email: 'A@B.test' }))).toEqual({
      subject: 'u1',
      email: 'a@b.test',
      expiresAt: 1_780_000_000_000,
    });
    for (const token of [null, '', 'opaque-token', 'a.b', 'a.%%%.c', jwt([1]), jwt('x'), 'a..c'])
      expect(readTokenClaims(token)).toEqual({});
    expect(readTokenClaims(jwt({ exp: '2026-01-01' }))).toEqual({});
  });

  it('refuses signing in again as another account (by email or by the token’s subject) and keeps the profile’s own', async () => {
    const { profiles, secrets } = setup();
    const state = await profiles.signIn({ name: 'Studio', baseUrl: expiring.url, ...producer });
    const id = state.activeId;
    const saved = await secrets.get(`profile-token:${id}`);
    await expireSessions(expiring);
    await expect((await profiles.active()).client.listProjects({ pageSize: 1 })).rejects.toMatchObject({
      type: 'SESSION_EXPIRED',
    });

    await expect(profiles.renew({ id, ...other })).rejects.toMatchObject({
      type: 'OTHER_ACCOUNT',
      message:
        'Studio belongs to another account (producer@sandbox.test). Sign in as that account; to use other@sandbox.test add it as a new connection.',
    });
    // A pasted token of the other user: its subject says whose it is.
    await expect(profiles.renew({ id, token: expiring.tokens.otherUser })).rejects.toMatchObject({
      type: 'OTHER_ACCOUNT',
    });
    // Nothing changed: still signed out, still the old token.
    expect((await profiles.state()).profiles.find((p) => p.id === id)?.signedOut).toBe(true);
    expect(await secrets.get(`profile-token:${id}`)).toBe(saved);

    // The same account signs in again.
    const renewed = await profiles.renew({ id, ...producer });
    expect(renewed.profiles.find((p) => p.id === id)?.signedOut).toBe(false);
  });

  it('knows the account of a profile saved before accounts were recorded from its saved token', async () => {
    const { profiles, settingsStore } = setup();
    const state = await profiles.add({ name: 'Older', baseUrl: expiring.url, token: expiring.tokens.full });
    const stored = settingsStore.get('profiles') as { profiles: Array<Record<string, unknown>> };
    for (const profile of stored.profiles) delete profile.account;
    settingsStore.set('profiles', stored);
    await expect(profiles.renew({ id: state.activeId, ...other })).rejects.toMatchObject({
      type: 'OTHER_ACCOUNT',
    });
    await expect(profiles.renew({ id: state.activeId, ...producer })).resolves.toBeDefined();
  });
});

describe('the Sandbox profile follows its process', () => {
  it('shows the sandbox status, announces every change as profile.changed, and restarts it on request', async () => {
    const listeners = new Set<(status: SandboxStatus) => void>();
    let status: SandboxStatus = { state: 'running' };
    const setStatus = (next: SandboxStatus) => {
      status = next;
      for (const listener of listeners) listener(next);
    };
    let url = sandbox.url;
    let restarts = 0;
    const events: EventPayloads['profile.changed'][] = [];
    const profiles = createProfiles({
      settingsStore: createMemorySettingsStore(),
      secrets: createMemorySecretStore(),
      sandbox: {
        ensure: async () => ({ url, token: sandbox.tokens.full }),
        status: () => status,
        onStatus: (listener) => {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
        restart: async () => {
          restarts++;
          setStatus({ state: 'running' });
          return status;
        },
      },
      events: { emit: (_event, payload) => void events.push(payload) },
    });
    expect((await profiles.state()).sandbox).toEqual({ state: 'running' });
    expect((await profiles.active()).profile.baseUrl).toBe(sandbox.url);

    setStatus({
      state: 'unavailable',
      reason: 'The sandbox service stopped (signal SIGKILL)',
      restarting: true,
    });
    await vi.waitFor(() => expect(events.at(-1)?.sandbox.state).toBe('unavailable'));
    expect(events.at(-1)?.sandbox.reason).toBe('The sandbox service stopped (signal SIGKILL)');

    // After a restart on another port, the profile's address and client follow.
    url = 'http://127.0.0.1:1';
    const restarted = await profiles.restartSandbox();
    expect(restarts).toBe(1);
    expect(restarted.sandbox).toEqual({ state: 'running' });
    const active = await profiles.active();
    expect(active.profile.baseUrl).toBe('http://127.0.0.1:1');
    url = sandbox.url;
    expect((await (await profiles.active()).client.listProjects({ pageSize: 1 })).page).toBe(1);
  });
});
