import type { BrowserWindow } from 'electron';
import { IPC_EVENT } from '../../../shared/ipc/channels';
import type { EventBus } from '../events';
import type { MediaResolver } from '../hosts/browser-host';
import type { Router } from '../ipc/router';
import { attachIpc } from './ipc';
import { handleProtocols, registerSchemes } from './protocols';
import { installSecurityGuards } from './security';
import type { ElectronModule } from './types';
import { createMainWindow, type WindowStateStore } from './window';

/** What the Electron edge needs from the plain-Node services behind it. */
export interface AppServices {
  router: Router;
  events: EventBus;
  media: MediaResolver;
  windowState: WindowStateStore;
  dispose(): Promise<void>;
}

export interface ElectronAppOptions {
  preloadPath: string;
  rendererDir: string;
  createServices(userDataDir: string): Promise<AppServices>;
  log?: (message: string) => void;
}

/** The whole Electron lifecycle, thin: schemes, single instance, guards, window, IPC, events, notifications. */
export async function startElectronApp(electron: ElectronModule, options: ElectronAppOptions): Promise<void> {
  const { app } = electron;
  registerSchemes(electron);
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  installSecurityGuards(electron, options.log);
  await app.whenReady();

  const services = await options.createServices(app.getPath('userData'));
  handleProtocols(electron, { rendererDir: options.rendererDir, media: services.media });
  attachIpc(electron, services.router);

  let win: BrowserWindow | null = null;
  const open = () => {
    win = createMainWindow(electron, { preloadPath: options.preloadPath, state: services.windowState });
    win.on('closed', () => (win = null));
  };
  open();

  services.events.attach((event, payload) => {
    if (win && !win.isDestroyed()) win.webContents.send(IPC_EVENT, event, payload);
  });
  services.events.attach((event, payload) => {
    if (event !== 'deliverable.ready' || !electron.Notification.isSupported()) return;
    const ready = payload as { projectTitle: string; deliverableName: string; serviceSubCategory: string };
    new electron.Notification({
      title: 'Ready for review',
      body: `${ready.projectTitle}: ${ready.serviceSubCategory} ${ready.deliverableName}`,
    }).show();
  });

  app.on('second-instance', () => {
    if (!win) return open();
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('activate', () => {
    if (!win) open();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  let disposed = false;
  app.on('before-quit', (event) => {
    if (disposed) return;
    event.preventDefault();
    disposed = true;
    void services.dispose().finally(() => app.quit());
  });
}
