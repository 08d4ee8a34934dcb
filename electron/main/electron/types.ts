import type * as Electron from 'electron';

/** The parts of the electron module the edge uses: passed in, so tests hand a recording fake. */
export type ElectronModule = Pick<
  typeof Electron,
  | 'app'
  | 'BrowserWindow'
  | 'ipcMain'
  | 'protocol'
  | 'session'
  | 'shell'
  | 'Notification'
  | 'safeStorage'
  | 'screen'
  | 'Menu'
  | 'utilityProcess'
>;

export const APP_SCHEME = 'app';
export const APP_HOST = 'takedesk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const MEDIA_SCHEME = 'takedesk-media';
