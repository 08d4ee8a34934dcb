/**
 * The API client and the Sandbox profile against the sandbox's HTTPS mode: the sandbox's certificate is the one
 * authority the Sandbox profile trusts (nothing global); any other profile uses the system store.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../sandbox/server';
import { voiceOverBody } from '../../sandbox/test-support/test-helpers';
import { generateSandboxTls } from '../../sandbox/tls';
import { createProfiles, createMemorySettingsStore, SANDBOX_PROFILE_ID } from '../profiles';
import { createMemorySecretStore } from '../secrets';
import { createApiClient } from './client';
import { ApiClientError } from './errors';

let sandbox: Sandbox;
let impostor: Server;
let impostorUrl: string;

beforeAll(async () => {
  sandbox = await createSandbox({ https: true, delivery: 'manual' });
  // Another self-signed certificate for the same address: what the sandbox's CA must not vouch for.
  impostor = createServer(await generateSandboxTls(), (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"page":1,"total":0,"projects":[]}');
  });
  await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
  impostorUrl = `https://127.0.0.1:${(impostor.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  impostor?.closeAllConnections();
  impostor?.close();
  await sandbox?.close();
});

const retried: string[] = [];
const client = (baseUrl: string, ca?: string) =>
  createApiClient({
    baseUrl,
    getToken: async () => sandbox.tokens.full,
    timeoutMs: 5000,
    retry: { sleep: async () => {}, random: () => 0, onRetry: (info) => retried.push(info.reason) },
    ...(ca ? { ca } : {}),
  });

async function rejection(promise: Promise<unknown>): Promise<ApiClientError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiClientError);
  return error as ApiClientError;
}

describe('the API client over HTTPS', () => {
  it('with the sandbox certificate: create, read, deliver, list, approve and versions', async () => {
    expect(sandbox.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const api = client(sandbox.url, sandbox.certificate);
    const project = await api.createProject({ ...voiceOverBody(), title: `HTTPS ${Date.now()}` } as never);
    expect((await api.getProject(project.id)).title).toBe(project.title);
    await sandbox.deliverNow(project.id);
    const [first] = await api.listDeliverables(project.id);
    expect(first?.urls.wav).toMatch(/^https:\/\/127\.0\.0\.1:/);
    expect((await api.approveDeliverable(first!.id)).status).toBe('approved');
    expect((await api.listVersions(first!.id)).versions.length).toBeGreaterThan(0);
  });

  it('without it the certificate is refused at once, as a clear transport error (no retries)', async () => {
    retried.length = 0;
    const error = await rejection(client(sandbox.url).listProjects({ pageSize: 1 }));
    expect(error.type).toBe('NETWORK_UNREACHABLE');
    expect(error.message).toMatch(
      /presented a certificate Takedesk does not trust \(DEPTH_ZERO_SELF_SIGNED_CERT\)/,
    );
    expect(retried).toEqual([]);
  });

  it('another self-signed certificate for 127.0.0.1 is refused even with the sandbox certificate', async () => {
    const error = await rejection(client(impostorUrl, sandbox.certificate).listProjects({ pageSize: 1 }));
    expect(error.message).toMatch(/does not trust/);
  });
});

describe('the Sandbox profile trusts exactly the sandbox certificate', () => {
  it('its client and its media get the certificate; a service profile keeps the system store', async () => {
    const profiles = createProfiles({
      settingsStore: createMemorySettingsStore(),
      secrets: createMemorySecretStore(),
      sandbox: {
        ensure: async () => ({
          url: sandbox.url,
          token: sandbox.tokens.full,
          certificate: sandbox.certificate!,
        }),
      },
      events: { emit: () => undefined },
    });
    const active = await profiles.active();
    expect(active.profile.id).toBe(SANDBOX_PROFILE_ID);
    expect(active.ca).toBe(sandbox.certificate);
    expect((await active.client.listProjects({ pageSize: 1 })).page).toBe(1);
    // A real account at an HTTPS address the system does not trust (here, the sandbox itself) is refused when added.
    await expect(
      profiles.add({ name: 'Live', baseUrl: sandbox.url, token: sandbox.tokens.full }),
    ).rejects.toThrow(/does not trust/);
  });
});
