import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../sandbox/server';
import { activeProfileId } from './active-profile-id';
import { createMemorySettingsStore, createProfiles, SANDBOX_PROFILE_ID } from '../profiles';
import { createMemorySecretStore } from '../secrets';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox({ delivery: 'manual' });
});
afterAll(async () => {
  await sandbox?.close();
});

describe('activeProfileId', () => {
  it('follows the profile the profiles service has active: the Sandbox at first, an added account, a switch back', async () => {
    const profiles = createProfiles({
      settingsStore: createMemorySettingsStore(),
      secrets: createMemorySecretStore(),
      sandbox: { ensure: async () => ({ url: sandbox.url, token: sandbox.tokens.full }) },
      events: { emit: () => undefined },
    });
    expect(await activeProfileId(profiles)).toBe(SANDBOX_PROFILE_ID);

    const added = await profiles.add({ name: 'Studio', baseUrl: sandbox.url, token: sandbox.tokens.full });
    const studio = added.profiles.find((p) => p.name === 'Studio')!;
    expect(await activeProfileId(profiles)).toBe(studio.id);
    expect(studio.id).not.toBe(SANDBOX_PROFILE_ID);

    await profiles.activate(SANDBOX_PROFILE_ID);
    expect(await activeProfileId(profiles)).toBe(SANDBOX_PROFILE_ID);
  });
});
