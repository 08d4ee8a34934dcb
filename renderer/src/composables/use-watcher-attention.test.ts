// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { defineComponent, h, nextTick, reactive } from 'vue';
import { mount } from '@vue/test-utils';
import type { RouteLocationNormalizedLoaded } from 'vue-router';
import { projectOnScreen, useWatcherAttention } from './use-watcher-attention';

describe('projectOnScreen', () => {
  it.each([
    [{ name: 'project', params: { id: 'p1' }, query: {} }, 'p1'],
    [{ name: 'review', params: { deliverableId: 'd1' }, query: { projectId: 'p2' } }, 'p2'],
    [{ name: 'review', params: { deliverableId: 'd1' }, query: {} }, null],
    [{ name: 'projects', params: {}, query: {} }, null],
  ])('%o -> %s', (route, expected) => {
    expect(projectOnScreen(route as unknown as RouteLocationNormalizedLoaded)).toBe(expected);
  });
});

describe('useWatcherAttention', () => {
  it('reports the project on screen and the window going hidden and shown again', async () => {
    const calls: Array<{ projectId: string | null; visible: boolean }> = [];
    const api = {
      watcher: {
        attend: async (input: { projectId: string | null; visible: boolean }) => {
          calls.push(input);
          return null;
        },
      },
    } as unknown as Parameters<typeof useWatcherAttention>[0];
    const route = reactive({
      name: 'projects',
      params: {},
      query: {},
    }) as unknown as RouteLocationNormalizedLoaded;
    let state: DocumentVisibilityState = 'visible';
    const listeners = new Set<() => void>();
    const doc = {
      get visibilityState() {
        return state;
      },
      addEventListener: (_: string, fn: () => void) => listeners.add(fn),
      removeEventListener: (_: string, fn: () => void) => listeners.delete(fn),
    } as unknown as Document;
    const wrapper = mount(
      defineComponent({
        setup() {
          useWatcherAttention(api, route, doc);
          return () => h('div');
        },
      }),
    );
    expect(calls).toEqual([{ projectId: null, visible: true }]);
    Object.assign(route, { name: 'project', params: { id: 'p9' } });
    await nextTick();
    expect(calls.at(-1)).toEqual({ projectId: 'p9', visible: true });
    state = 'hidden';
    listeners.forEach((fn) => fn());
    await nextTick();
    expect(calls.at(-1)).toEqual({ projectId: 'p9', visible: false });
    wrapper.unmount();
    expect(listeners.size).toBe(0);
  });
});
