// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { createApp, defineComponent, h } from 'vue';
import type { ClientApi } from '../../../shared/ipc/api';
import { DEEP_LINK_ROUTE, REVIEW_COMMAND_EVENT, useDesktopCommands } from './use-desktop-commands';

function harness(keyboard = false) {
  const listeners = new Map<string, (payload: unknown) => void>();
  const api = {
    on: (event: string, listener: (payload: unknown) => void) => {
      listeners.set(event, listener);
      return () => listeners.delete(event);
    },
    updates: {
      status: vi.fn(async () => ({ state: 'idle', checkedAt: null })),
      check: vi.fn(async () => ({ state: 'checking' })),
      install: vi.fn(async () => ({ restarting: true })),
    },
  } as unknown as ClientApi;
  const router = { push: vi.fn(async () => undefined) };
  const target = new EventTarget();
  let exposed: ReturnType<typeof useDesktopCommands> | undefined;
  const app = createApp(
    defineComponent({
      setup() {
        exposed = useDesktopCommands(api, router as never, { target, keyboard });
        return () => h('div');
      },
    }),
  );
  app.mount(document.createElement('div'));
  const fire = (event: string, payload: unknown) => listeners.get(event)?.(payload);
  return { api, router, target, fire, app, listeners, exposed: () => exposed! };
}

describe('desktop commands', () => {
  it('opens only well-formed project links', () => {
    const { router, fire } = harness();
    fire('app.navigate', { route: '/projects/3f2a9c1d-1111-4222-8333-444455556666' });
    fire('app.navigate', { route: '/settings' });
    fire('app.navigate', { route: '/projects/../settings' });
    fire('app.navigate', { route: 'javascript:alert(1)' });
    expect(router.push).toHaveBeenCalledTimes(1);
    expect(DEEP_LINK_ROUTE.test('/projects/3F2A9C1D-1111-4222-8333-444455556666')).toBe(false);
  });

  it('maps navigation commands to routes and transport commands to the player keys', () => {
    const { router, fire, target } = harness();
    const keys: string[] = [];
    target.addEventListener('keydown', (e) =>
      keys.push(`${(e as KeyboardEvent).shiftKey ? 'Shift+' : ''}${(e as KeyboardEvent).key}`),
    );
    fire('menu.command', { command: 'navigate.library' });
    fire('menu.command', { command: 'project.new' });
    fire('menu.command', { command: 'review.playPause' });
    fire('menu.command', { command: 'review.seekForwardLong' });
    expect(router.push.mock.calls).toEqual([['/library'], ['/projects/new']]);
    expect(keys).toEqual([' ', 'Shift+ArrowRight']);
  });

  it('hands review actions to the review screen and tracks the update state', async () => {
    const { fire, target, exposed, api } = harness();
    const commands: unknown[] = [];
    target.addEventListener(REVIEW_COMMAND_EVENT, (e) => commands.push((e as CustomEvent).detail));
    fire('menu.command', { command: 'review.approve' });
    expect(commands).toEqual(['review.approve']);
    await Promise.resolve();
    fire('updates.status', { state: 'ready', version: '0.2.0' });
    expect(exposed().update.value).toEqual({ state: 'ready', version: '0.2.0' });
    fire('menu.command', { command: 'updates.install' });
    expect(api.updates.install).toHaveBeenCalled();
  });

  it('in browser mode runs the menu shortcuts from the keyboard, the same way as a menu click', () => {
    const { router, target } = harness(true);
    const commands: unknown[] = [];
    target.addEventListener(REVIEW_COMMAND_EVENT, (e) => commands.push((e as CustomEvent).detail));
    const press = (key: string, mods: KeyboardEventInit = {}) => {
      const event = new KeyboardEvent('keydown', { key, cancelable: true, ...mods });
      target.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(press('Enter', { ctrlKey: true })).toBe(true);
    expect(press('[', { ctrlKey: true })).toBe(true);
    expect(press(']', { ctrlKey: true })).toBe(true);
    expect(press('E', { ctrlKey: true, shiftKey: true })).toBe(true);
    expect(press('3', { ctrlKey: true })).toBe(true);
    // Plain keys and unknown chords are left alone.
    expect(press('Enter')).toBe(false);
    expect(press('x', { ctrlKey: true })).toBe(false);
    expect(commands).toEqual([
      'review.approve',
      'review.previousVersion',
      'review.nextVersion',
      'review.revision',
    ]);
    expect(router.push.mock.calls).toEqual([['/library']]);
  });

  it('leaves the keyboard to the native menu in Electron', () => {
    const { target } = harness(false);
    const commands: unknown[] = [];
    target.addEventListener(REVIEW_COMMAND_EVENT, (e) => commands.push((e as CustomEvent).detail));
    target.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true }));
    expect(commands).toEqual([]);
  });

  it('unsubscribes when its owner unmounts', () => {
    const { app, listeners } = harness();
    expect(listeners.size).toBe(3);
    app.unmount();
    expect(listeners.size).toBe(0);
  });
});
