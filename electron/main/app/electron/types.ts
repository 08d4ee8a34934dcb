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
  | 'nativeImage'
>;

/**
 * electron-builder's `appId` (electron-builder.yml): on Windows the app's AppUserModelID, which the NSIS shortcut
 * carries, so toasts and taskbar grouping belong to the installed app. A test checks the two agree.
 */
export const APP_ID = 'app.takedesk.desktop';

export const APP_SCHEME = 'app';
export const APP_HOST = 'takedesk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const MEDIA_SCHEME = 'takedesk-media';
