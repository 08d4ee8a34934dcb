// @vitest-environment happy-dom
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { describe, expect, it } from 'vitest';
import type { ProfilesState, SandboxStatus } from '../../../shared/ipc';
import { API_KEY } from '../bridge';
import { useProfilesStore } from '../stores/profiles';
import { createFakeApi } from '../stores/fake-api.test-util';
import ProfileList from './ProfileList.vue';

const stateWith = (sandbox: SandboxStatus): ProfilesState => ({
  profiles: [
    {
      id: 'sandbox',
      name: 'Sandbox',
      baseUrl: 'http://127.0.0.1:4001',
      kind: 'sandbox',
      hasToken: true,
      createdAt: '',
    },
  ],
  activeId: 'sandbox',
  secrets: { kind: 'memory', secure: true, warning: null },
  sandbox,
});

const down: SandboxStatus = {
  state: 'unavailable',
  reason: 'The sandbox service stopped (signal SIGKILL)',
  restarting: false,
};

async function mountList(initial: ProfilesState) {
  const fake = createFakeApi({
    'profiles.list': () => initial,
    'sandbox.restart': () => stateWith({ state: 'running' }),
  });
  const pinia = createPinia();
  const wrapper = mount(ProfileList, { global: { plugins: [pinia], provide: { [API_KEY]: fake.api } } });
  const store = useProfilesStore(pinia);
  const stop = store.listen();
  await store.load();
  await flushPromises();
  return { wrapper, fake, store, stop };
}

describe('ProfileList: the Sandbox profile follows its process', () => {
  it('shows an unavailable sandbox with the reason and a "Restart sandbox" button that calls sandbox.restart', async () => {
    const { wrapper, fake, stop } = await mountList(stateWith(down));
    expect(wrapper.get('[data-testid="sandbox-unavailable"]').text()).toBe('Unavailable');
    expect(wrapper.get('[data-testid="sandbox-reason"]').text()).toContain(
      'The sandbox service stopped (signal SIGKILL)',
    );
    const button = wrapper.get('[data-testid="sandbox-restart"]');
    expect(button.text()).toBe('Restart sandbox');
    await button.trigger('click');
    await flushPromises();
    expect(fake.calls.map((c) => c.channel)).toEqual(['profiles.list', 'sandbox.restart']);
    expect(wrapper.find('[data-testid="sandbox-unavailable"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="sandbox-restart"]').exists()).toBe(false);
    stop();
  });

  it('follows profile.changed as main reports the process going down and coming back', async () => {
    const { wrapper, fake, stop } = await mountList(stateWith({ state: 'running' }));
    expect(wrapper.find('[data-testid="sandbox-restart"]').exists()).toBe(false);
    expect(wrapper.text()).toContain('http://127.0.0.1:4001');

    fake.emit('profile.changed', stateWith({ ...down, restarting: true }));
    await flushPromises();
    expect(wrapper.get('[data-testid="sandbox-reason"]').text()).toContain('Restarting…');
    expect(wrapper.find('[data-testid="sandbox-restart"]').exists()).toBe(true);

    fake.emit('profile.changed', stateWith({ state: 'starting' }));
    await flushPromises();
    expect(wrapper.get('[data-testid="sandbox-starting"]').text()).toBe('Starting…');

    fake.emit('profile.changed', stateWith({ state: 'running' }));
    await flushPromises();
    expect(wrapper.find('[data-testid="sandbox-starting"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="sandbox-unavailable"]').exists()).toBe(false);
    stop();
  });
});

describe('ProfileList: removing an account with decisions waiting', () => {
  const withStudio = (): ProfilesState => {
    const state = stateWith({ state: 'running' });
    return {
      ...state,
      profiles: [
        ...state.profiles,
        {
          id: 'studio',
          name: 'Studio',
          baseUrl: 'https://api.example',
          kind: 'live',
          hasToken: true,
          createdAt: '',
        },
      ] as ProfilesState['profiles'],
    };
  };

  async function openRemove(pending: number) {
    const fake = createFakeApi({
      'profiles.list': () => withStudio(),
      'outbox.pending': (input) => ((input as { profileId: string }).profileId === 'studio' ? pending : 0),
    });
    const pinia = createPinia();
    const wrapper = mount(ProfileList, {
      global: { plugins: [pinia], provide: { [API_KEY]: fake.api } },
      attachTo: document.body,
    });
    await useProfilesStore(pinia).load();
    await flushPromises();
    await wrapper.get('[data-profile-id="studio"] [data-testid="profile-remove"]').trigger('click');
    await flushPromises();
    return { wrapper, fake };
  }

  it('warns with their count, and says they are kept for the same account', async () => {
    const { wrapper, fake } = await openRemove(2);
    expect(fake.calls.find((c) => c.channel === 'outbox.pending')?.input).toEqual({ profileId: 'studio' });
    expect(wrapper.get('[data-testid="profile-remove-pending"]').text()).toBe(
      '2 decisions you made with this account have not reached the service yet. They are kept on this computer, not sent, and go out when you add the same account again.',
    );
    wrapper.unmount();
  });

  it('says nothing of decisions when none waits', async () => {
    const { wrapper } = await openRemove(0);
    expect(wrapper.find('[data-testid="profile-remove-pending"]').exists()).toBe(false);
    wrapper.unmount();
  });
});
