import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { createUpdater, updaterAvailability, type UpdateStatus } from './updater';

/** electron-updater's autoUpdater as far as Takedesk uses it: events plus check/install. */
function fakeAutoUpdater(check: (up: FakeUpdater) => Promise<unknown> = async () => null) {
  const up = Object.assign(new EventEmitter(), {
    autoDownload: false,
    autoInstallOnAppQuit: false,
    checks: 0,
    installs: [] as unknown[][],
    checkForUpdates: () => {
      up.checks++;
      return check(up);
    },
    quitAndInstall: (...args: unknown[]) => void up.installs.push(args),
  });
  return up;
}
type FakeUpdater = ReturnType<typeof fakeAutoUpdater>;

function start(up: FakeUpdater, enabled: Parameters<typeof createUpdater>[0]['enabled'] = true) {
  const seen: UpdateStatus[] = [];
  const updater = createUpdater({
    autoUpdater: up,
    enabled,
    onStatus: (s) => seen.push(s),
    firstCheckMs: 1000,
    intervalMs: 60_000,
    now: () => new Date('2026-01-02T03:04:05Z'),
  });
  return { updater, seen };
}

describe('updater', () => {
  it('walks checking -> available -> downloading n% -> ready, and installs only when ready', async () => {
    const up = fakeAutoUpdater(async (u) => {
      u.emit('checking-for-update');
      u.emit('update-available', { version: '0.2.0' });
      u.emit('download-progress', { percent: 41.6 });
      u.emit('download-progress', { percent: 140 });
      u.emit('update-downloaded', { version: '0.2.0' });
      return {};
    });
    const { updater, seen } = start(up);
    expect(up.autoDownload).toBe(true);
    expect(up.autoInstallOnAppQuit).toBe(true);
    expect(updater.install()).toBe(false);
    await updater.check();
    expect(seen).toEqual([
      { state: 'checking' },
      { state: 'available', version: '0.2.0' },
      { state: 'downloading', version: '0.2.0', percent: 42 },
      { state: 'downloading', version: '0.2.0', percent: 100 },
      { state: 'ready', version: '0.2.0' },
    ]);
    await updater.check();
    expect(up.checks).toBe(1);
    expect(updater.install()).toBe(true);
    expect(up.installs).toEqual([[false, true]]);
    updater.dispose();
  });

  it('goes back to idle with the check time when there is nothing new', async () => {
    const up = fakeAutoUpdater(async (u) => {
      u.emit('checking-for-update');
      u.emit('update-not-available', { version: '0.1.0' });
      return null;
    });
    const { updater } = start(up);
    await updater.check();
    expect(updater.status()).toEqual({ state: 'idle', checkedAt: '2026-01-02T03:04:05.000Z' });
    updater.dispose();
  });

  it('reports an error without any credential in it, and can check again afterwards', async () => {
    const up = fakeAutoUpdater(async (u) => {
      u.emit('checking-for-update');
      const error = new Error(
        'HttpError: 407 proxy said x-access-token: eyJhbGciOiJIUzUxMiJ9.eyJzdWIiOiJ4In0.sig',
      );
      u.emit('error', error);
      throw error;
    });
    const { updater } = start(up);
    await updater.check();
    const status = updater.status();
    expect(status.state).toBe('error');
    expect(JSON.stringify(status)).not.toContain('eyJ');
    await updater.check();
    expect(up.checks).toBe(2);
    updater.dispose();
  });

  it('checks after launch and then periodically, and stops on dispose', async () => {
    vi.useFakeTimers();
    try {
      const up = fakeAutoUpdater();
      const { updater } = start(up);
      expect(up.checks).toBe(0);
      await vi.advanceTimersByTimeAsync(1000);
      expect(up.checks).toBe(1);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(up.checks).toBe(2);
      updater.dispose();
      await vi.advanceTimersByTimeAsync(180_000);
      expect(up.checks).toBe(2);
      expect(up.listenerCount('error')).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('never touches the updater when disabled', async () => {
    vi.useFakeTimers();
    try {
      const up = fakeAutoUpdater();
      const { updater } = start(up, { reason: 'dev' });
      await vi.advanceTimersByTimeAsync(120_000);
      await updater.check();
      expect(up.checks).toBe(0);
      expect(up.listenerCount('error')).toBe(0);
      expect(updater.status()).toEqual({ state: 'disabled', reason: 'dev' });
      expect(updater.install()).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    [{ isPackaged: true, browserMode: true, platform: 'win32', appImage: undefined }, { reason: 'browser' }],
    [{ isPackaged: false, browserMode: false, platform: 'darwin', appImage: undefined }, { reason: 'dev' }],
    [
      { isPackaged: true, browserMode: false, platform: 'linux', appImage: undefined },
      { reason: 'unsupported' },
    ],
    [
      { isPackaged: true, browserMode: false, platform: 'linux', appImage: '/home/a/Takedesk.AppImage' },
      true,
    ],
    [{ isPackaged: true, browserMode: false, platform: 'win32', appImage: undefined }, true],
  ] as const)('availability %o -> %o', (env, expected) => {
    expect(updaterAvailability(env)).toEqual(expected);
  });
});
