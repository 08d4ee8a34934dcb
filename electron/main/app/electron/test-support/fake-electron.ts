import { fork as forkNode, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { tmpdir } from 'node:os';
import { PassThrough } from 'node:stream';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/** A recording stand-in for the electron module (the binary is not installable here; tests never need it). */
/** A menu template as Electron takes it (kept loose: tests walk it by label). */
export type MenuTemplate = Array<{
  label?: string;
  role?: string;
  accelerator?: string;
  registerAccelerator?: boolean;
  click?: () => void;
  submenu?: MenuTemplate;
}>;

export function createFakeElectron(
  options: {
    singleInstance?: boolean;
    packaged?: boolean;
    /** The Linux secret backend safeStorage reports (default 'gnome_libsecret'). */
    storageBackend?: string;
    /** What the page answers to `webContents.executeJavaScript` (the smoke test's IPC round trip). */
    pageAnswer?: (code: string) => Promise<unknown>;
  } = {},
) {
  const record = {
    windows: [] as FakeWindow[],
    schemes: [] as unknown[],
    protocolHandlers: new Map<string, (request: Request) => Promise<Response> | Response>(),
    ipcHandlers: new Map<string, (...args: unknown[]) => unknown>(),
    permissionRequest: null as
      | null
      | ((
          wc: unknown,
          permission: string,
          cb: (ok: boolean) => void,
          details?: { requestingUrl?: string },
        ) => void),
    permissionCheck: null as null | ((...args: unknown[]) => boolean),
    openedExternal: [] as string[],
    notifications: [] as Array<{ title: string; body: string }>,
    quit: 0,
    /** Codes passed to app.exit. */
    exits: [] as number[],
    paths: [] as Array<[string, string]>,
    scripts: [] as string[],
    /** The application menu template last set (menus are rebuilt, e.g. when an update is ready). */
    menu: null as null | MenuTemplate,
    menusSet: 0,
    protocolClients: [] as unknown[][],
    aboutOptions: null as null | Record<string, unknown>,
    aboutShown: 0,
    openedPaths: [] as string[],
    /** utilityProcess.fork calls: module, args, options. */
    utilityForks: [] as Array<{ modulePath: string; args: string[]; options: Record<string, unknown> }>,
    /** The utility processes forked, for tests that play their events. */
    utilityProcesses: [] as FakeUtilityProcess[],
    appUserModelIds: [] as string[],
    /** safeStorage.setUsePlainTextEncryption calls. */
    plainTextEncryption: [] as boolean[],
    /** webContents.startDrag calls: the item, on the sender it was called on. */
    drags: [] as Array<{ file: string; icon: unknown }>,
  };

  /**
   * Electron refuses these before `ready` (session, protocol.handle, BrowserWindow, screen, safeStorage's key): the
   * fake refuses too, and `isReady()` is false until `whenReady()` has resolved, as in Electron.
   */
  let ready = false;
  const readyPromise = new Promise<void>((resolve) =>
    setImmediate(() => {
      ready = true;
      resolve();
    }),
  );
  const gate = (message: string) => {
    if (!ready) throw new Error(message);
  };

  /**
   * Electron's UtilityProcess, played by a real Node child process (a .ts module runs through tsx): pid, piped
   * stdout/stderr, 'spawn' and 'exit' (code) events, kill() as SIGTERM.
   */
  class FakeUtilityProcess extends EventEmitter {
    readonly #child: ChildProcess;
    pid: number | undefined;
    stdout: NodeJS.ReadableStream | null;
    stderr: NodeJS.ReadableStream | null;
    constructor(modulePath: string, args: string[], options: { stdio?: unknown; execArgv?: string[] }) {
      super();
      const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
      const piped = options.stdio === 'pipe';
      this.#child = forkNode(modulePath, args, {
        execArgv: [...(modulePath.endsWith('.ts') ? ['--import', tsx] : []), ...(options.execArgv ?? [])],
        stdio: ['ignore', piped ? 'pipe' : 'inherit', piped ? 'pipe' : 'inherit', 'ipc'],
      });
      this.pid = this.#child.pid;
      // Electron forwards a utility process's output over a pipe of its own: lines may arrive after 'exit'.
      this.stdout = this.#child.stdout && lagging(this.#child.stdout);
      this.stderr = this.#child.stderr && lagging(this.#child.stderr);
      record.utilityProcesses.push(this);
      this.#child.once('spawn', () => this.emit('spawn'));
      this.#child.once('exit', (code) => {
        this.pid = undefined;
        this.emit('exit', code ?? 1);
      });
    }
    kill(): boolean {
      return this.#child.kill('SIGTERM');
    }
  }

  /** Emits `from`'s chunks 30 ms late, and ends late too. */
  function lagging(from: NodeJS.ReadableStream): NodeJS.ReadableStream {
    const out = new PassThrough();
    from.on('data', (chunk) => setTimeout(() => out.write(chunk), 30));
    from.on('end', () => setTimeout(() => out.end(), 40));
    return out;
  }

  class FakeWindow extends EventEmitter {
    options: Record<string, unknown>;
    loadedUrl = '';
    focused = 0;
    sent: unknown[][] = [];
    progress: unknown[][] = [];
    destroyed = false;
    webContents = Object.assign(new EventEmitter(), {
      send: (...args: unknown[]) => this.sent.push(args),
      getURL: () => this.loadedUrl,
      executeJavaScript: (code: string) => {
        record.scripts.push(code);
        return options.pageAnswer ? options.pageAnswer(code) : Promise.resolve(true);
      },
      /** Electron throws on an empty icon (macOS) or no file. */
      startDrag: (item: { file: string; icon: unknown }) => {
        if (!item.file || !item.icon || (item.icon as { isEmpty?: () => boolean }).isEmpty?.())
          throw new Error("Must specify non-empty 'icon' option");
        record.drags.push(item);
      },
    });
    constructor(opts: Record<string, unknown>) {
      gate('Cannot create BrowserWindow before app is ready');
      super();
      this.options = opts;
      record.windows.push(this);
    }
    loadURL(url: string) {
      this.loadedUrl = url;
      // Like Chromium, the page finishes loading after the caller has attached its listeners.
      setImmediate(() => this.webContents.emit('did-finish-load'));
      return Promise.resolve();
    }
    setProgressBar = (...args: unknown[]) => void this.progress.push(args);
    isDestroyed = () => this.destroyed;
    isMinimized = () => false;
    isFullScreen = () => false;
    restore = () => undefined;
    focus = () => void this.focused++;
    show = () => undefined;
    getBounds = () => ({ x: 10, y: 20, width: 1000, height: 700 });
  }

  const app = Object.assign(new EventEmitter(), {
    requestSingleInstanceLock: () => options.singleInstance ?? true,
    whenReady: () => readyPromise,
    getPath: (name: string) => (name === 'temp' ? tmpdir() : '/tmp/takedesk-fake-userdata'),
    getVersion: () => '0.0.0-test',
    getName: () => 'Takedesk',
    isPackaged: options.packaged ?? false,
    isReady: () => ready,
    setAppUserModelId: (id: string) => void record.appUserModelIds.push(id),
    quit: () => void record.quit++,
    exit: (code: number) => void record.exits.push(code),
    setPath: (name: string, path: string) => void record.paths.push([name, path]),
    setAsDefaultProtocolClient: (...args: unknown[]) => record.protocolClients.push(args) > 0,
    setAboutPanelOptions: (opts: Record<string, unknown>) => void (record.aboutOptions = opts),
    showAboutPanel: () => void record.aboutShown++,
  });

  class FakeNotification {
    static isSupported = () => true;
    constructor(private opts: { title: string; body: string }) {}
    show() {
      record.notifications.push(this.opts);
    }
  }

  const electron = {
    app,
    BrowserWindow: FakeWindow,
    ipcMain: {
      handle: (channel: string, fn: (...args: unknown[]) => unknown) => record.ipcHandlers.set(channel, fn),
      removeHandler: (channel: string) => record.ipcHandlers.delete(channel),
    },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => {
        if (ready)
          throw new Error('protocol.registerSchemesAsPrivileged should be called before app is ready');
        record.schemes.push(...schemes);
      },
      handle: (scheme: string, fn: (request: Request) => Promise<Response> | Response) => {
        gate('protocol.handle cannot be used before the app is ready');
        record.protocolHandlers.set(scheme, fn);
      },
    },
    session: {
      get defaultSession() {
        gate('Session can only be received when app is ready');
        return {
          setPermissionRequestHandler: (fn: typeof record.permissionRequest) =>
            (record.permissionRequest = fn),
          setPermissionCheckHandler: (fn: typeof record.permissionCheck) => (record.permissionCheck = fn),
        };
      },
    },
    shell: {
      openExternal: async (url: string) => void record.openedExternal.push(url),
      openPath: async (path: string) => {
        record.openedPaths.push(path);
        return '';
      },
    },
    Menu: {
      buildFromTemplate: (template: MenuTemplate) => ({ template }),
      setApplicationMenu: (menu: { template: MenuTemplate } | null) => {
        record.menu = menu?.template ?? null;
        record.menusSet++;
      },
    },
    Notification: FakeNotification,
    safeStorage: {
      getSelectedStorageBackend: () => (ready ? (options.storageBackend ?? 'gnome_libsecret') : 'unknown'),
      setUsePlainTextEncryption: (on: boolean) => void record.plainTextEncryption.push(on),
    },
    screen: {
      getAllDisplays: () => {
        gate("The 'screen' module can't be used before the app 'ready' event");
        return [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }];
      },
    },
    nativeImage: {
      createFromDataURL: (url: string) => ({ url, isEmpty: () => !/^data:image\/png;base64,.+/.test(url) }),
    },
    utilityProcess: {
      fork: (modulePath: string, args: string[] = [], options: Record<string, unknown> = {}) => {
        record.utilityForks.push({ modulePath, args, options });
        return new FakeUtilityProcess(modulePath, args, options);
      },
    },
  };

  /** Simulates Chromium creating a web contents, and returns what the guards registered on it. */
  function createWebContents() {
    const contents = Object.assign(new EventEmitter(), {
      windowOpenHandler: null as null | ((details: { url: string }) => { action: string }),
      setWindowOpenHandler(fn: (details: { url: string }) => { action: string }) {
        this.windowOpenHandler = fn;
      },
    });
    app.emit('web-contents-created', {}, contents);
    return contents;
  }

  return { electron, record, createWebContents, FakeWindow };
}

export function fakeEvent() {
  let prevented = false;
  return {
    preventDefault: () => void (prevented = true),
    get defaultPrevented() {
      return prevented;
    },
  };
}
