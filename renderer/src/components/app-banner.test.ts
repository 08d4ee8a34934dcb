// @vitest-environment happy-dom
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { describe, expect, it } from 'vitest';
import type { ProfileSummary, ProfilesState } from '../../../shared/ipc';
import { API_KEY } from '../bridge';
import { settleSignIn, signInNeeded, signInReason } from '../session';
import { useProfilesStore } from '../stores/profiles';
import { createFakeApi } from '../stores/fake-api.test-util';
import AppBanner from './AppBanner.vue';
import CredentialFields from './CredentialFields.vue';

const FILE_WARNING = 'Tokens are saved unencrypted in /tmp/x/browser-mode-secrets.json.';
const sandbox: ProfileSummary = {
  id: 'sandbox',
  name: 'Sandbox',
  baseUrl: 'http://127.0.0.1:4001',
  kind: 'sandbox',
  hasToken: true,
  signedOut: false,
  reachability: 'unknown',
  createdAt: '',
};
const account: ProfileSummary = { ...sandbox, id: 'a1', name: 'Acme', kind: 'service', hasToken: true };

function state(profiles: ProfileSummary[], secure: boolean): ProfilesState {
  return {
    profiles,
    activeId: profiles.at(-1)!.id,
    secrets: { kind: secure ? 'safeStorage' : 'file', secure, warning: secure ? null : FILE_WARNING },
    sandbox: { state: 'running' },
  };
}

async function mountBoth(initial: ProfilesState) {
  const fake = createFakeApi({ 'profiles.list': () => initial });
  const pinia = createPinia();
  const global = { plugins: [pinia], provide: { [API_KEY]: fake.api }, stubs: { RouterLink: true } };
  const banner = mount(AppBanner, { global });
  const fields = mount(CredentialFields, {
    props: {
      idPrefix: 'p',
      touched: false,
      modelValue: { method: 'token' as const, email: '', password: '', token: '' },
    },
    global,
  });
  await useProfilesStore(pinia).load();
  await flushPromises();
  return { banner, fields };
}

describe('where tokens are kept, said once and the same way (issue 15.7)', () => {
  it('shows no storage warning while no account token exists', async () => {
    const { banner, fields } = await mountBoth(state([sandbox], false));
    expect(banner.find('[data-testid="secrets-banner"]').exists()).toBe(false);
    // The form that would save one says where it would go, in the banner's words.
    expect(fields.get('[data-testid="token-storage-hint"]').text()).toBe(FILE_WARNING);
  });

  it('warns once a token is stored unencrypted, with the same words as the form', async () => {
    const { banner, fields } = await mountBoth(state([sandbox, account], false));
    expect(banner.get('[data-testid="secrets-banner"]').text()).toContain(FILE_WARNING);
    expect(fields.get('[data-testid="token-storage-hint"]').text()).toBe(FILE_WARNING);
  });

  it('never warns where the operating system encrypts, and the form says so', async () => {
    const { banner, fields } = await mountBoth(state([sandbox, account], true));
    expect(banner.find('[data-testid="secrets-banner"]').exists()).toBe(false);
    expect(fields.get('[data-testid="token-storage-hint"]').text()).toContain(
      'encrypted by the operating system',
    );
  });
});

describe('a session that ends soon (the token’s exp), said a week before', () => {
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

  it('names the profile and the day from 7 days before, and offers signing in again', async () => {
    const ends = inDays(5);
    const { banner } = await mountBoth(state([sandbox, { ...account, sessionEndsAt: ends }], true));
    const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short' }).format(new Date(ends));
    expect(banner.get('[data-testid="session-ending-banner"]').text()).toContain(
      `Your session for Acme ends on ${day} — sign in again`,
    );
    expect(signInNeeded()).toBe(false);
    await banner.get('[data-testid="session-ending-sign-in"]').trigger('click');
    expect(signInNeeded()).toBe(true);
    expect(signInReason()).toBe('ending'); // the dialog says when it ends, not that it expired
    settleSignIn(false);
  });

  it('says nothing further ahead, for tokens without a date, or for the Sandbox', async () => {
    for (const profile of [{ ...account, sessionEndsAt: inDays(8) }, account]) {
      const { banner } = await mountBoth(state([sandbox, profile], true));
      expect(banner.find('[data-testid="session-ending-banner"]').exists()).toBe(false);
    }
    const { banner } = await mountBoth(state([{ ...sandbox, sessionEndsAt: inDays(1) }], true));
    expect(banner.find('[data-testid="session-ending-banner"]').exists()).toBe(false);
  });
});
