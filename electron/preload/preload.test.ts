import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CHANNELS, IPC_EVENT, IPC_INVOKE } from '../../shared/ipc/channels';

const exposed: Record<string, unknown> = {};
const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
const invoke = vi.fn(async (..._args: unknown[]) => ({ ok: true, value: 1 }));

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, value: unknown) => (exposed[key] = value) },
  ipcRenderer: {
    invoke,
    send: vi.fn(),
    on: (channel: string, fn: (...args: unknown[]) => void) => {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)!.add(fn);
    },
    removeListener: (channel: string, fn: (...args: unknown[]) => void) => listeners.get(channel)?.delete(fn),
  },
}));

type Api = Record<string, unknown> & { on: (e: string, l: (p: unknown) => void) => () => void };

describe('preload bridge', () => {
  beforeEach(async () => {
    await import('./index');
  });

  it('exposes only window.takedesk', () => {
    expect(Object.keys(exposed)).toEqual(['takedesk']);
  });

  it('exposes no raw ipcRenderer, send or invoke', () => {
    const api = exposed.takedesk as Api;
    const flat = JSON.stringify(Object.keys(api));
    expect(flat).not.toMatch(/ipcRenderer|send|invoke/);
    for (const ns of Object.values(api)) {
      if (typeof ns === 'object' && ns) expect(Object.keys(ns)).not.toContain('ipcRenderer');
    }
    expect(Object.isFrozen(api)).toBe(true);
  });

  it('has exactly one method per allowlisted channel', () => {
    const api = exposed.takedesk as Record<string, Record<string, unknown>>;
    const methods = Object.entries(api)
      .filter(([key]) => key !== 'on')
      .flatMap(([ns, group]) => Object.keys(group).map((m) => `${ns}.${m}`))
      .sort();
    expect(methods).toEqual([...CHANNELS].sort());
  });

  it('sends every call over the single invoke channel with the catalog name', async () => {
    const api = exposed.takedesk as { projects: { list: (q: unknown) => Promise<unknown> } };
    await expect(api.projects.list({ page: 1 })).resolves.toEqual({ ok: true, value: 1 });
    expect(invoke).toHaveBeenLastCalledWith(IPC_INVOKE, 'projects.list', { page: 1 });
  });

  it('subscriptions deliver only their event and return a working unsubscribe', () => {
    const api = exposed.takedesk as Api;
    const got: unknown[] = [];
    const off = api.on('deliverable.ready', (p) => got.push(p));
    const fire = (name: string, payload: unknown) =>
      listeners.get(IPC_EVENT)?.forEach((fn) => fn({}, name, payload));
    fire('deliverable.ready', { id: 1 });
    fire('downloads.progress', []);
    off();
    fire('deliverable.ready', { id: 2 });
    expect(got).toEqual([{ id: 1 }]);
  });

  it('refuses to subscribe to an unknown event', () => {
    const api = exposed.takedesk as Api;
    expect(() => api.on('ipc:anything', () => undefined)).toThrow(/Unknown event/);
  });
});
