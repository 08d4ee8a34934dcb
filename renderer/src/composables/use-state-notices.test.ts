import { describe, expect, it } from 'vitest';
import type { StateNotice } from '../../../shared/ipc';
import { showStateNotices } from './use-state-notices';

const notice = (file: string): StateNotice => ({
  file,
  label: 'The settings file',
  reset: ['preferences.concurrency'],
  copy: `/data/${file}.damaged`,
  message: `The settings file was damaged; reset: preferences.concurrency. A copy of the damaged file is at /data/${file}.damaged.`,
});

describe('showStateNotices', () => {
  it('shows what main recovered at start and later, each once, as toasts that stay until dismissed', async () => {
    let waiting: StateNotice[] = [notice('browser-mode-settings.json')];
    let listener: (() => void) | null = null;
    const api = {
      app: {
        notices: async () => {
          const taken = waiting;
          waiting = [];
          return taken;
        },
      },
      on: (event: string, fn: () => void) => {
        expect(event).toBe('app.notices');
        listener = fn;
        return () => (listener = null);
      },
    } as unknown as Parameters<typeof showStateNotices>[0];
    const shown: Array<{ toast: { kind: string; title: string; detail?: string }; ms?: number }> = [];
    const off = showStateNotices(api, (toast, ms) => shown.push({ toast, ms }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(shown).toEqual([
      {
        toast: {
          kind: 'error',
          title: 'The settings file was damaged and recovered',
          detail: expect.stringContaining('reset: preferences.concurrency'),
        },
        ms: 0,
      },
    ]);
    waiting = [notice('outbox.json')];
    listener!();
    listener!();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(shown.map((s) => s.toast.detail)).toEqual([
      expect.stringContaining('browser-mode-settings.json'),
      expect.stringContaining('outbox.json'),
    ]);
    off();
    expect(listener).toBeNull();
  });
});
