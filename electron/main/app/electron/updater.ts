import { redact } from './log';

/** Where an update stands; `ready` is what the renderer shows as "Restart to update". */
import type { UpdateStatus } from '../../../../shared/ipc/types';

export type { UpdateStatus };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- electron-updater's own listener type
type Listener = (...args: any[]) => void;

/** The part of electron-updater's `autoUpdater` this uses (injected: tests pass an EventEmitter fake). */
export interface AutoUpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  on(event: string, listener: Listener): unknown;
  removeListener(event: string, listener: Listener): unknown;
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
}

export interface UpdaterDeps {
  autoUpdater: AutoUpdaterLike;
  /** False in dev, in browser mode and in builds that cannot update themselves; the reason is reported. */
  enabled: true | { reason: 'dev' | 'browser' | 'unsupported' };
  onStatus(status: UpdateStatus): void;
  log?: (message: string) => void;
  /** First check after launch; default 10 s, so startup is not slowed by the network. */
  firstCheckMs?: number;
  /** Default 6 h. */
  intervalMs?: number;
  now?: () => Date;
  timers?: Pick<typeof globalThis, 'setTimeout' | 'clearTimeout' | 'setInterval' | 'clearInterval'>;
}

export interface Updater {
  status(): UpdateStatus;
  /** Checks now (a no-op while disabled, checking, downloading or ready). */
  check(): Promise<void>;
  /** Restarts into the downloaded update; only in `ready`. Returns whether it did. */
  install(): boolean;
  dispose(): void;
}

/**
 * Update checks against the GitHub releases electron-builder publishes (`latest*.yml`): checks after launch and
 * periodically, downloads in the background, and reports `ready` so the UI can offer a restart. Installing on the
 * next quit is also on, so a producer who ignores the prompt still gets the update.
 */
export function createUpdater(deps: UpdaterDeps): Updater {
  const timers = deps.timers ?? globalThis;
  const now = deps.now ?? (() => new Date());
  let current: UpdateStatus =
    deps.enabled === true
      ? { state: 'idle', checkedAt: null }
      : { state: 'disabled', reason: deps.enabled.reason };
  const set = (next: UpdateStatus) => {
    current = next;
    deps.onStatus(next);
  };
  if (deps.enabled !== true) {
    return {
      status: () => current,
      check: async () => undefined,
      install: () => false,
      dispose: () => undefined,
    };
  }

  const up = deps.autoUpdater;
  up.autoDownload = true;
  up.autoInstallOnAppQuit = true;
  let version = '';
  const listeners: Array<[string, Listener]> = [
    ['checking-for-update', () => set({ state: 'checking' })],
    [
      'update-available',
      (info: { version: string }) => {
        version = info.version;
        set({ state: 'available', version });
      },
    ],
    ['update-not-available', () => set({ state: 'idle', checkedAt: now().toISOString() })],
    [
      'download-progress',
      (progress: { percent: number }) =>
        set({ state: 'downloading', version, percent: clampPercent(progress.percent) }),
    ],
    [
      'update-downloaded',
      (info: { version: string }) => {
        version = info.version || version;
        set({ state: 'ready', version });
      },
    ],
    [
      'error',
      (error: Error) => {
        // Update URLs are public release assets, but an error could quote a proxy header: strip anything secret.
        const message = redact(error?.message ?? String(error)).slice(0, 300);
        deps.log?.(`update error: ${message}`);
        if (current.state !== 'ready') set({ state: 'error', message });
      },
    ],
  ];
  for (const [event, fn] of listeners) up.on(event, fn);

  const check = async () => {
    if (current.state === 'checking' || current.state === 'downloading' || current.state === 'ready') return;
    try {
      await up.checkForUpdates();
    } catch (error) {
      // electron-updater emits 'error' too; only report here when it did not.
      // Events may have moved the state while awaiting, so read it afresh rather than trust narrowing.
      const state = current.state as UpdateStatus['state'];
      if (state === 'checking' || state === 'idle') {
        set({ state: 'error', message: redact((error as Error).message ?? String(error)).slice(0, 300) });
      }
    }
  };
  const first = timers.setTimeout(() => void check(), deps.firstCheckMs ?? 10_000);
  const every = timers.setInterval(() => void check(), deps.intervalMs ?? 6 * 60 * 60 * 1000);
  (first as { unref?: () => void }).unref?.();
  (every as { unref?: () => void }).unref?.();

  return {
    status: () => current,
    check,
    install() {
      if (current.state !== 'ready') return false;
      up.quitAndInstall(false, true);
      return true;
    },
    dispose() {
      timers.clearTimeout(first);
      timers.clearInterval(every);
      for (const [event, fn] of listeners) up.removeListener(event, fn);
    },
  };
}

function clampPercent(value: unknown): number {
  const n = typeof value === 'number' && Number.isFinite(value) ? value : 0;
  return Math.max(0, Math.min(100, Math.round(n)));
}

/**
 * Whether this process may update itself: only packaged builds, never in browser mode, and on Linux only from an
 * AppImage (a .deb is updated by the package manager).
 */
export function updaterAvailability(env: {
  isPackaged: boolean;
  browserMode: boolean;
  platform: NodeJS.Platform;
  appImage: string | undefined;
}): true | { reason: 'dev' | 'browser' | 'unsupported' } {
  if (env.browserMode) return { reason: 'browser' };
  if (!env.isPackaged) return { reason: 'dev' };
  if (env.platform === 'linux' && !env.appImage) return { reason: 'unsupported' };
  return true;
}
