import type { BrowserWindow } from 'electron';
import { mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { IPC_EVENT } from '../../../../shared/ipc/channels';
import type { EventPayloads } from '../../../../shared/ipc/contract';
import type { EventBus } from '../../kernel/events';
import type { MediaResolver } from '../hosts/browser-host';
import type { Router } from '../ipc/router';
import type { SettingsService } from '../../profiles';
import { createReadyBatcher, readyBatchText } from '../../../../shared/review/ready-batch';
import { aboutPanelOptions } from './about';
import { DEEP_LINK_SCHEME, findDeepLinkInArgv, parseDeepLink, type DeepLink } from './deep-link';
import { attachIpc } from './ipc';
import { createLog, type AppLog } from './log';
import { buildMenuTemplate, type MenuCommand } from './menu';
import { handleProtocols, registerSchemes } from './protocols';
import { installContentsGuards, installPermissionHandlers } from './security';
import {
  runSmokeSteps,
  SMOKE_LINE,
  SMOKE_TEST_FLAG,
  smokeMedia,
  smokeSteps,
  type SmokeProbes,
} from './smoke-test';
import { createTaskbarProgress, progressBarArgs } from './taskbar-progress';
import { APP_ID, type ElectronModule } from './types';
import { createUpdater, updaterAvailability, type AutoUpdaterLike, type Updater } from './updater';
import { createMainWindow, type WindowStateStore } from './window';

/** What the Electron edge needs from the plain-Node services behind it. */
export interface AppServices {
  router: Router;
  events: EventBus;
  media: MediaResolver;
  windowState: WindowStateStore;
  /** The producer's preferences: "Desktop notification" decides whether a ready delivery pops up. */
  settings: Pick<SettingsService, 'current'>;
  /** What the packaged app's `--smoke-test` checks behind the edge (the sandbox's process, a worker's decode). */
  smoke?: SmokeProbes;
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
  /** Default `process.platform` (tests play Windows and Linux). */
  platform?: NodeJS.Platform;
  /** Default `process.env.APPIMAGE`: set when the app runs from an AppImage. */
  appImage?: string;
}

/**
 * The whole Electron lifecycle, thin: schemes, single instance, deep links, guards, window, menu, IPC, events,
 * notifications, taskbar progress, updates and logs.
 */
export async function startElectronApp(electron: ElectronModule, options: ElectronAppOptions): Promise<void> {
  const { app } = electron;
  const platform = options.platform ?? process.platform;
  const argv = options.argv ?? process.argv;
  if (options.userDataDir) app.setPath('userData', options.userDataDir);
  // Windows files toasts and taskbar groups under this id: it must be the one the NSIS shortcut carries.
  if (platform === 'win32') app.setAppUserModelId(APP_ID);
  registerSchemes(electron);
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }

  // open-url can arrive before ready (macOS launches the app for the link), so listen first and hold the link.
  let pendingLink: DeepLink | null = findDeepLinkInArgv(argv);
  let deliverLink: (link: DeepLink) => void = (link) => (pendingLink = link);
  app.on('open-url', (event, url) => {
    event.preventDefault();
    const link = parseDeepLink(url);
    if (link) deliverLink(link);
  });

  const log = createLog({ dir: options.logDir ?? app.getPath('logs'), mirror: options.log });
  // Every web contents gets its guards from its creation on; the session (permissions) exists only once ready.
  installContentsGuards(electron, (message) => log.warn(message));
  await app.whenReady();
  installPermissionHandlers(electron);
  log.info(`Takedesk ${app.getVersion()} starting (Electron ${process.versions.electron ?? '?'})`);
  const client = protocolClientArgs({
    packaged: app.isPackaged,
    platform,
    appImage: options.appImage ?? process.env.APPIMAGE,
    defaultApp: (process as { defaultApp?: boolean }).defaultApp === true,
    argv,
    execPath: process.execPath,
  });
  // No undefined arguments: Electron's native binding would try to convert them.
  if (client?.length === 2) app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, client[0], client[1]);
  else if (client) app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);

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
          platform,
          appImage: options.appImage ?? process.env.APPIMAGE,
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
  const smokeDir = argv.includes(SMOKE_TEST_FLAG)
    ? mkdtempSync(join(app.getPath('temp'), 'takedesk-smoke-'))
    : null;
  handleProtocols(electron, {
    rendererDir: options.rendererDir,
    media: services.media,
    ...(smokeDir ? { smoke: smokeMedia(smokeDir) } : {}),
  });
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
      platform,
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
  if (smokeDir && win) {
    const print = (line: string) => {
      log.info(line);
      console.log(line);
    };
    void runSmokeTest(win, services, smokeDir, print).then((code) => {
      rmSync(smokeDir, { recursive: true, force: true });
      app.exit(code);
    });
  }

  services.events.attach((event, payload) => {
    if (win && !win.isDestroyed()) win.webContents.send(IPC_EVENT, event, payload);
  });
  // One notification per batch of deliveries (a watcher turn ends with its status), not one per take.
  const readyBatch = createReadyBatcher((batch) => new electron.Notification(readyBatchText(batch)).show());
  services.events.attach((event, payload) => {
    if (event === 'watcher.status') return readyBatch.end();
    if (event !== 'deliverable.ready' || !electron.Notification.isSupported()) return;
    // Read at each delivery, so turning the setting off in the Settings screen takes effect at once.
    if (!services.settings.current().notifications) return;
    // The bus carries every event's payload under one type; the name just checked says which one this is.
    readyBatch.add(payload as EventPayloads['deliverable.ready']);
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
    readyBatch.dispose();
    log.info('quitting');
    void services.dispose().finally(() => app.quit());
  });
}

/**
 * The smoke test's checks (smoke-test.ts), then a clean stop of the services; one line each. Resolves the exit
 * code: 0 only when every check and the stop passed.
 */
async function runSmokeTest(
  win: BrowserWindow,
  services: AppServices,
  workDir: string,
  print: (line: string) => void,
): Promise<0 | 1> {
  const loaded = new Promise<string>((resolve, reject) => {
    win.webContents.once('did-finish-load', () => resolve(`the window loaded ${win.webContents.getURL()}`));
    win.webContents.once('did-fail-load', (_event: unknown, code: number, description: string) =>
      reject(new Error(`the renderer failed to load (${code} ${description})`)),
    );
  });
  const probes: SmokeProbes = services.smoke ?? {
    sandbox: () => Promise.reject(new Error('the services offer no sandbox probe')),
    decodeMp3: () => Promise.reject(new Error('the services offer no decoder probe')),
  };
  let code = await runSmokeSteps(smokeSteps({ win, loaded, probes, workDir }), print);
  const stopped = await runSmokeSteps(
    [{ name: 'quit', run: () => services.dispose().then(() => 'the services stopped') }],
    print,
  );
  if (stopped !== 0) code = 1;
  print(`${SMOKE_LINE} ${code === 0 ? 'passed' : 'FAILED'}`);
  return code;
}

/**
 * How to register `takedesk://` with the OS, or null where that is not ours to do. An installed app's package
 * registers the scheme (NSIS in the registry, the macOS bundle's Info.plist, the .deb's desktop entry, named
 * `desktopName` in package.json): calling it there would write a second, wrong handler. An AppImage has no install
 * step, so it registers itself. In dev (`electron <app path>`) the app path must be passed, or the OS would launch
 * bare Electron; it is the first argument that is not a switch (under Playwright argv[1] is `--inspect=0`).
 */
export function protocolClientArgs(context: {
  packaged: boolean;
  platform: NodeJS.Platform;
  appImage: string | undefined;
  defaultApp: boolean;
  argv: readonly string[];
  execPath: string;
}): [] | [string, string[]] | null {
  if (context.packaged) return context.platform === 'linux' && context.appImage ? [] : null;
  if (!context.defaultApp) return null;
  const appPath = context.argv.slice(1).find((arg) => !arg.startsWith('-'));
  return appPath ? [context.execPath, [resolve(appPath)]] : null;
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
