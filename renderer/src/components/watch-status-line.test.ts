// @vitest-environment happy-dom
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WatchedProject, WatcherStatus } from '../../../shared/ipc';
import { API_KEY } from '../bridge';
import { createFakeApi } from '../stores/fake-api.test-util';
import WatchStatusLine from './WatchStatusLine.vue';

const NOW = Date.parse('2026-11-26T10:00:00Z');
const twoMinutesAgo = new Date(NOW - 2 * 60_000).toISOString();

function mountLine(props: { projectId?: string }, handlers: Parameters<typeof createFakeApi>[0]) {
  const fake = createFakeApi(handlers);
  const wrapper = mount(WatchStatusLine, {
    props,
    global: { plugins: [createPinia()], provide: { [API_KEY]: fake.api } },
  });
  return { wrapper, fake };
}

describe('WatchStatusLine', () => {
  afterEach(() => vi.useRealTimers());

  it('says for the account when deliveries were checked, when next, and how long a round takes', async () => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
    const status: WatcherStatus = {
      watching: 300,
      lastPollAt: twoMinutesAgo,
      nextPollInMs: 70_000,
      failing: false,
      cycleMs: 10 * 60_000,
    };
    const { wrapper, fake } = mountLine(
      {},
      { 'watcher.status': () => status, 'watcher.checkNow': () => status },
    );
    await flushPromises();
    expect(wrapper.get('[data-testid="account-watch-text"]').text()).toBe(
      'Checked 2 min ago · next in about 1 min · 300 projects in work, each checked about every 10 min',
    );
    await wrapper.get('[data-testid="account-watch-check-now"]').trigger('click');
    await flushPromises();
    expect(fake.calls.filter((c) => c.channel === 'watcher.checkNow')).toEqual([
      { channel: 'watcher.checkNow', input: {} },
    ]);
    // Each watcher turn brings the new status.
    fake.emit('watcher.status', { ...status, lastPollAt: new Date(NOW).toISOString(), nextPollInMs: 2_000 });
    await flushPromises();
    expect(wrapper.get('[data-testid="account-watch-text"]').text()).toMatch(
      /^Checked just now · next in a few seconds · /,
    );
  });

  it('says for one project when it was checked and will be next, and checks that project now', async () => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
    let watched: WatchedProject = { watched: true, checkedAt: twoMinutesAgo, nextInMs: 6 * 60_000 };
    const { wrapper, fake } = mountLine(
      { projectId: 'p1' },
      {
        'watcher.project': () => watched,
        'watcher.checkNow': () => {
          watched = { ...watched, nextInMs: 2_000 };
          return { watching: 1, lastPollAt: null, nextPollInMs: 2_000, failing: false, cycleMs: 480_000 };
        },
      },
    );
    await flushPromises();
    const text = () => wrapper.get('[data-testid="project-watch-text"]').text();
    expect(text()).toBe('Checked 2 min ago · next in about 6 min');
    await wrapper.get('[data-testid="project-watch-check-now"]').trigger('click');
    await flushPromises();
    expect(fake.calls.find((c) => c.channel === 'watcher.checkNow')?.input).toEqual({ projectId: 'p1' });
    expect(text()).toBe('Checked 2 min ago · next in a few seconds');
  });

  it('says so when a project is not checked any more', async () => {
    const { wrapper } = mountLine(
      { projectId: 'p1' },
      { 'watcher.project': () => ({ watched: false, checkedAt: null, nextInMs: null }) },
    );
    await flushPromises();
    expect(wrapper.get('[data-testid="project-watch-text"]').text()).toBe('Not being checked for deliveries');
  });
});
