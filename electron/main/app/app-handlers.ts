/** The app's own part of the handler map: what it is, its recovered-state notices, settings and updates. */
import type { AppInfo, Settings, StateNotice, UpdateStatus } from '../../../shared/ipc';
import type { HandlersIn } from './ipc/router';

export interface UpdatesPort {
  status(): UpdateStatus;
  check(): Promise<unknown>;
  install(): boolean;
}

export interface AppHandlerDeps {
  appInfo(): Promise<AppInfo>;
  /** Notices about recovered state files not yet shown (each is given once). */
  stateNotices(): StateNotice[];
  settings: { get(): Promise<Settings>; set(patch: Partial<Settings>): Promise<Settings> };
  /** The app updater (Electron); browser mode answers `disabled`. */
  updates: UpdatesPort;
}

export function createAppHandlers(deps: AppHandlerDeps): HandlersIn<'app' | 'settings' | 'updates'> {
  return {
    'app.info': () => deps.appInfo(),
    'app.notices': async () => deps.stateNotices(),

    'settings.get': () => deps.settings.get(),
    'settings.set': (patch) => deps.settings.set(patch),

    'updates.status': () => deps.updates.status(),
    'updates.check': async () => {
      await deps.updates.check();
      return deps.updates.status();
    },
    'updates.install': () => ({ restarting: deps.updates.install() }),
  };
}
