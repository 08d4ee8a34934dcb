import type { BrowserWindow } from 'electron';
import { resolve } from 'node:path';
import { IPC_EVENT } from '../../../shared/ipc/channels';
import type { EventPayloads } from '../../../shared/ipc/contract';
import type { EventBus } from '../events';
import type { MediaResolver } from '../hosts/browser-host';
import type { Router } from '../ipc/router';
import { aboutPanelOptions } from './about';
import { DEEP_LINK_SCHEME, findDeepLinkInArgv, parseDeepLink, type DeepLink } from './deep-link';
import { attachIpc } from './ipc';
import { createLog, type AppLog } from './log';
import { buildMenuTemplate, type MenuCommand } from './menu';
import { handleProtocols, registerSchemes } from './protocols';
import { installSecurityGuards } from './security';
import { runSmokeTest, SMOKE_TEST_FLAG } from './smoke-test';
import { createTaskbarProgress, progressBarArgs } from './taskbar-progress';
import type { ElectronModule } from './types';
import { createUpdater, updaterAvailability, type AutoUpdaterLike, type Updater } from './updater';
import { createMainWindow, type WindowStateStore } from './window';

/** What the Electron edge needs from the plain-Node services behind it. */
export interface AppServices {
  router: Router;
  events: EventBus;
  media: MediaResolver;
  windowState: WindowStateStore;
  dispose(): Promise<void>;
}

/** Events the desktop edge itself sends to the window (payloads in shared/ipc/contract.ts, like every event). */
type DesktopEvent = 'menu.command' | 'app.navigate' | 'updates.status';

/** What the edge hands back to the services (for the router's `updates.*` handlers). */
export interface DesktopHandle {
  updates: Pick<Updater, 'status' | 'check' | 'install'>;
  log: AppLog;
}

export interface ElectronAppOptions {
  preloadPath: string;
  rendererDir: string;
  /** The second argument gives the handlers the updater and log the edge owns. */
  createServices(userDataDir: string, desktop: DesktopHandle): Promise<AppServices>;
  /** Extra sink for log lines (they always go to the rotating, redacting log file as well). */
  log?: (message: string) => void;
  /** electron-updater's `autoUpdater` (import it in index.ts); without it updates report `unsupported`. */
  autoUpdater?: AutoUpdaterLike;
  /** Where log files go; default `app.getPath('logs')`. */
  logDir?: string;
  /** Default `process.argv` (a first launch from a `takedesk://` link carries it there on Windows and Linux). */
  argv?: readonly string[];
  /** Used for the About panel icon on Linux and Windows. */
  iconPath?: string;
  /** Overrides Electron's userData folder (TAKEDESK_DATA_DIR: tests and the smoke test run on a fresh one). */
  userDataDir?: string;
}

/**
 * The whole Electron lifecycle, thin: schemes, single instance, deep links, guards, window, menu, IPC, events,
 * notifications, taskbar progress, updates and logs.
 */
export async function startElectronApp(electron: ElectronModule, options: ElectronAppOptions): Promise<void> {
  const { app } = electron;
  if (options.userDataDir) app.setPath('userData', options.userDataDir);
  registerSchemes(electron);
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }

  // open-url can arrive before ready (macOS launches the app for the link), so listen first and hold the link.
  let pendingLink: DeepLink | null = findDeepLinkInArgv(options.argv ?? process.argv);
  let deliverLink: (link: DeepLink) => void = (link) => (pendingLink = link);
  app.on('open-url', (event, url) => {
    event.preventDefault();
    const link = parseDeepLink(url);
    if (link) deliverLink(link);
  });

  const log = createLog({ dir: options.logDir ?? app.getPath('logs'), mirror: options.log });
  installSecurityGuards(electron, (message) => log.warn(message));
  await app.whenReady();
  log.info(`Takedesk ${app.getVersion()} starting (Electron ${process.versions.electron ?? '?'})`);
  registerProtocolClient(electron, options.argv ?? process.argv);

  let win: BrowserWindow | null = null;
  let loaded = false;
  const sendDesktop = <E extends DesktopEvent>(event: E, payload: EventPayloads[E]) => {
    if (win && !win.isDestroyed()) win.webContents.send(IPC_EVENT, event, payload);
  };

  const updater = createUpdater({
    autoUpdater: options.autoUpdater ?? inertUpdater,
    enabled: options.autoUpdater
      ? updaterAvailability({
          isPackaged: app.isPackaged,
          browserMode: false,
          platform: process.platform,
          appImage: process.env.APPIMAGE,
        })
      : { reason: 'unsupported' },
    onStatus: (status) => {
      if (status.state === 'ready' || status.state === 'error') log.info(`update ${status.state}`, status);
      sendDesktop('updates.status', status);
      setMenu();
    },
    log: (message) => log.warn(message),
  });

  const services = await options.createServices(app.getPath('userData'), { updates: updater, log });
  handleProtocols(electron, { rendererDir: options.rendererDir, media: services.media });
  attachIpc(electron, services.router);

  app.setAboutPanelOptions(
    aboutPanelOptions({
      appName: app.getName(),
      appVersion: app.getVersion(),
      versions: process.versions,
      ...(options.iconPath ? { iconPath: options.iconPath } : {}),
    }),
  );
  const runCommand = (command: MenuCommand) => {
    if (command === 'updates.check') void updater.check();
    else if (command === 'updates.install') updater.install();
    else sendDesktop('menu.command', { command });
  };
  function setMenu() {
    const template = buildMenuTemplate({
      platform: process.platform,
      appName: app.getName(),
      dev: !app.isPackaged,
      updateReady: updater.status().state === 'ready',
      send: runCommand,
      showAbout: () => app.showAboutPanel(),
      openLogs: () => void electron.shell.openPath(options.logDir ?? app.getPath('logs')),
    });
    electron.Menu.setApplicationMenu(electron.Menu.buildFromTemplate(template));
  }
  setMenu();

  const focus = () => {
    if (!win) return open();
    if (win.isMinimized()) win.restore();
    win.focus();
  };
  function open() {
    loaded = false;
    const created = createMainWindow(electron, {
      preloadPath: options.preloadPath,
      state: services.windowState,
    });
    win = created;
    created.webContents.once('did-finish-load', () => {
      loaded = true;
      if (pendingLink) deliverLink(pendingLink);
    });
    created.on('closed', () => {
      if (win === created) win = null;
    });
  }
  deliverLink = (link) => {
    if (!win || !loaded) {
      pendingLink = link;
      if (!win && app.isReady()) open();
      return;
    }
    pendingLink = null;
    log.info(`deep link to project ${link.projectId}`);
    sendDesktop('app.navigate', { route: link.route });
    focus();
  };
  open();
  if ((options.argv ?? process.argv).includes(SMOKE_TEST_FLAG) && win) {
    runSmokeTest(win, (code, reason) => {
      log.info(`smoke test: ${reason}`);
      console.log(`takedesk smoke test: ${code === 0 ? 'passed' : 'FAILED'}: ${reason}`);
      void services.dispose().finally(() => app.exit(code));
    });
  }

  services.events.attach((event, payload) => {
    if (win && !win.isDestroyed()) win.webContents.send(IPC_EVENT, event, payload);
  });
  services.events.attach((event, payload) => {
    if (event !== 'deliverable.ready' || !electron.Notification.isSupported()) return;
    // The bus carries every event's payload under one type; the name just checked says which one this is.
    const ready = payload as EventPayloads['deliverable.ready'];
    new electron.Notification({
      title: 'Ready for review',
      body: `${ready.projectTitle}: ${ready.serviceSubCategory} ${ready.deliverableName}`,
    }).show();
  });
  const taskbar = createTaskbarProgress((progress) => {
    if (win && !win.isDestroyed()) win.setProgressBar(...progressBarArgs(progress));
  });
  services.events.attach((event, payload) => taskbar.sink(event, payload));

  app.on('second-instance', (_event: unknown, argv?: string[]) => {
    const link = Array.isArray(argv) ? findDeepLinkInArgv(argv) : null;
    if (link) deliverLink(link);
    else focus();
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
    updater.dispose();
    log.info('quitting');
    void services.dispose().finally(() => app.quit());
  });
}

/**
 * Makes the OS hand `takedesk://` links to this app. A packaged app registers itself; in dev (`electron .`) the
 * script path must be passed too, or Windows would launch bare Electron.
 */
function registerProtocolClient(electron: Pick<ElectronModule, 'app'>, argv: readonly string[]): void {
  const dev = (process as { defaultApp?: boolean }).defaultApp === true;
  if (dev && argv[1])
    electron.app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, process.execPath, [resolve(argv[1])]);
  else electron.app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
}

/** Stands in when no autoUpdater is given: the updater is then disabled and never calls it. */
const inertUpdater: AutoUpdaterLike = {
  autoDownload: false,
  autoInstallOnAppQuit: false,
  on: () => undefined,
  removeListener: () => undefined,
  checkForUpdates: async () => null,
  quitAndInstall: () => undefined,
};
