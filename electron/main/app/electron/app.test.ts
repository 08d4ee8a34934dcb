import { EventEmitter } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IPC_EVENT, IPC_INVOKE } from '../../../../shared/ipc/channels';
import { createEventBus } from '../../kernel/events';
import { createMemorySettingsStore } from '../../profiles/settings-store';
import { createSettings } from '../../profiles/settings';
import type { Router } from '../ipc/router';
import { parse as parseYaml } from 'yaml';
import { createAnalyzer } from '../../audio/analyzer';
import { protocolClientArgs, startElectronApp, type AppServices, type DesktopHandle } from './app';
import { createFakeElectron, fakeEvent, type MenuTemplate } from './test-support/fake-electron';
import { APP_ID, type ElectronModule } from './types';
import type { AutoUpdaterLike } from './updater';

async function boot(
  options: {
    singleInstance?: boolean;
    packaged?: boolean;
    argv?: string[];
    autoUpdater?: AutoUpdaterLike;
    pageAnswer?: (code: string) => Promise<unknown>;
    platform?: NodeJS.Platform;
    appImage?: string;
    smoke?: AppServices['smoke'];
    dispose?: () => Promise<void>;
  } = {},
) {
  const fake = createFakeElectron(options);
  const events = createEventBus();
  const routed: unknown[] = [];
  const router: Router = {
    invoke: async (channel, input, ctx) => {
      routed.push({ channel, input, ctx });
      return { ok: true, value: 'ran' };
    },
  };
  const settings = createSettings({ store: createMemorySettingsStore() });
  const services: AppServices = {
    router,
    events,
    media: {
      library: async (id) => new Response(`lib ${id}`),
      remote: async (token) => new Response(`remote ${token}`),
    },
    windowState: { get: () => undefined, set: () => undefined },
    settings,
    ...(options.smoke ? { smoke: options.smoke } : {}),
    dispose: options.dispose ?? (async () => undefined),
  };
  let desktop: DesktopHandle | null = null;
  const logDir = join(rendererDir, `logs-${++boots}`);
  await startElectronApp(fake.electron as unknown as ElectronModule, {
    preloadPath: '/x/preload.cjs',
    rendererDir: rendererDir,
    logDir,
    argv: options.argv ?? ['/opt/Takedesk/takedesk'],
    ...(options.autoUpdater ? { autoUpdater: options.autoUpdater } : {}),
    platform: options.platform ?? 'linux',
    ...(options.appImage ? { appImage: options.appImage } : {}),
    createServices: async (_dir, handle) => {
      desktop = handle;
      return services;
    },
  });
  return { ...fake, events, routed, logDir, settings, desktop: desktop! };
}

let rendererDir: string;
let boots = 0;
beforeAll(async () => {
  rendererDir = await mkdtemp(join(tmpdir(), 'takedesk-renderer-'));
  await writeFile(join(rendererDir, 'index.html'), '<html><head></head><body>app</body></html>');
});
afterAll(() => rm(rendererDir, { recursive: true, force: true }));

/** A "deliverable.ready" event's payload: a voice-over take of profile "p". */
function readyTake(deliverableId: string, deliverableName: string, projectId: string, projectTitle: string) {
  return {
    profileId: 'p',
    projectId,
    projectTitle,
    deliverableId,
    deliverableName,
    serviceSubCategory: 'voice_over',
  };
}

describe('Electron edge', () => {
  it('creates the window isolated, sandboxed, without Node, with web security', async () => {
    const { record } = await boot();
    expect(record.windows).toHaveLength(1);
    const prefs = record.windows[0]!.options.webPreferences as Record<string, unknown>;
    // Named here, not imported from window.ts: the test is the checklist the factory must meet (§2-§4, §6, §8).
    const on = ['contextIsolation', 'sandbox', 'webSecurity'];
    const off = [
      'nodeIntegration',
      'nodeIntegrationInWorker',
      'nodeIntegrationInSubFrames',
      'allowRunningInsecureContent',
      'webviewTag',
    ];
    for (const name of on) expect(prefs[name], name).toBe(true);
    for (const name of off) expect(prefs[name], name).toBe(false);
    expect(prefs.preload).toBe('/x/preload.cjs');
    expect(record.windows[0]!.loadedUrl).toBe('app://takedesk/index.html');
  });

  it('quits at once when another instance holds the lock, and a second launch focuses the window', async () => {
    const second = await boot({ singleInstance: false });
    expect(second.record.quit).toBe(1);
    expect(second.record.windows).toHaveLength(0);
    const first = await boot();
    first.electron.app.emit('second-instance');
    expect(first.record.windows[0]!.focused).toBe(1);
  });

  it('navigation away from the app is prevented; a safe link opens in the OS browser instead', async () => {
    const { createWebContents, record } = await boot();
    const contents = createWebContents();
    const away = fakeEvent();
    contents.emit('will-navigate', away, 'https://example.com/help');
    expect(away.defaultPrevented).toBe(true);
    expect(record.openedExternal).toEqual(['https://example.com/help']);
    const local = fakeEvent();
    contents.emit('will-navigate', local, 'http://127.0.0.1:8080/');
    expect(local.defaultPrevented).toBe(true);
    expect(record.openedExternal).toHaveLength(1);
    const inside = fakeEvent();
    contents.emit('will-navigate', inside, 'app://takedesk/index.html#/projects');
    expect(inside.defaultPrevented).toBe(false);
  });

  it('window.open is always denied, and webviews are refused', async () => {
    const { createWebContents, record } = await boot();
    const contents = createWebContents();
    expect(contents.windowOpenHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(record.openedExternal).toEqual(['https://example.com/']);
    const webview = fakeEvent();
    contents.emit('will-attach-webview', webview);
    expect(webview.defaultPrevented).toBe(true);
  });

  it('denies every permission request but the clipboard write of the app itself ("Copy path")', async () => {
    const { record } = await boot();
    const ask = (permission: string, requestingUrl: string) => {
      let answer: boolean | undefined;
      record.permissionRequest!({}, permission, (ok) => (answer = ok), { requestingUrl });
      return answer;
    };
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal'])
      expect(ask(permission, 'app://takedesk/index.html'), permission).toBe(false);
    expect(ask('clipboard-sanitized-write', 'app://takedesk/index.html#/library')).toBe(true);
    expect(ask('clipboard-sanitized-write', 'https://example.com/')).toBe(false);
    expect(ask('clipboard-sanitized-write', 'takedesk-media://library/x')).toBe(false);
    expect(record.permissionCheck!({}, 'clipboard-sanitized-write', 'app://takedesk')).toBe(true);
    expect(record.permissionCheck!({}, 'clipboard-sanitized-write', 'https://example.com')).toBe(false);
    expect(record.permissionCheck!({}, 'media', 'app://takedesk')).toBe(false);
  });

  it('opens its window on an Electron that refuses ready-gated APIs before ready (session, protocol, windows)', async () => {
    const fake = createFakeElectron();
    // The fake models Electron: before ready these throw, and isReady() is false.
    expect(fake.electron.app.isReady()).toBe(false);
    expect(() => fake.electron.session.defaultSession).toThrow(/when app is ready/);
    const { record, electron } = await boot();
    expect(electron.app.isReady()).toBe(true);
    expect(record.windows).toHaveLength(1);
    expect(record.permissionRequest).not.toBeNull();
    expect([...record.protocolHandlers.keys()]).toEqual(['app', 'takedesk-media']);
    // The guards on web contents are there from the start: installed before ready.
    expect(electron.app.listenerCount('web-contents-created')).toBe(1);
  });

  it("on Windows sets the AppUserModelID to electron-builder's appId before ready; elsewhere not", async () => {
    const builder = parseYaml(
      await readFile(join(import.meta.dirname, '../../../../electron-builder.yml'), 'utf8'),
    );
    expect(APP_ID).toBe(builder.appId);
    expect((await boot({ platform: 'win32' })).record.appUserModelIds).toEqual([APP_ID]);
    expect((await boot({ platform: 'linux' })).record.appUserModelIds).toEqual([]);
  });

  it('the media scheme is CORS-enabled and answers the app origin (wavesurfer fetches takes from app://takedesk)', async () => {
    const { record } = await boot();
    const media = record.schemes.find((s) => (s as { scheme: string }).scheme === 'takedesk-media') as {
      privileges: Record<string, boolean>;
    };
    expect(media.privileges).toMatchObject({ corsEnabled: true, supportFetchAPI: true, stream: true });
    const handle = record.protocolHandlers.get('takedesk-media')!;
    const answer = await handle(
      new Request('takedesk-media://library/abc', { headers: { Range: 'bytes=0-1' } }),
    );
    expect(await answer.text()).toBe('lib abc');
    expect(answer.headers.get('access-control-allow-origin')).toBe('app://takedesk');
    const preflight = await handle(new Request('takedesk-media://library/abc', { method: 'OPTIONS' }));
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Range/);
  });

  describe('IPC sender check', () => {
    const call = (record: ReturnType<typeof createFakeElectron>['record'], frame: unknown) =>
      record.ipcHandlers.get(IPC_INVOKE)!({ senderFrame: frame }, 'projects.list', {}) as Promise<{
        ok: boolean;
        error?: { type: string };
      }>;

    it('runs calls from the main frame at the app origin', async () => {
      const { record, routed } = await boot();
      await expect(call(record, { url: 'app://takedesk/index.html', parent: null })).resolves.toEqual({
        ok: true,
        value: 'ran',
      });
      expect(routed).toEqual([{ channel: 'projects.list', input: {}, ctx: { transport: 'electron' } }]);
    });

    it.each([
      ['a foreign origin', { url: 'https://evil.example/', parent: null }],
      ['an iframe inside the app', { url: 'app://takedesk/index.html', parent: {} }],
      ['a file: page', { url: 'file:///tmp/x.html', parent: null }],
      ['a missing frame', null],
    ])('rejects %s before any handler runs', async (_name, frame) => {
      const { record, routed } = await boot();
      const result = await call(record, frame);
      expect(result.ok).toBe(false);
      expect(result.error!.type).toBe('FORBIDDEN_SENDER');
      expect(routed).toHaveLength(0);
    });
  });

  it('forwards events to the window and shows a notification when a deliverable is ready', async () => {
    const { record, events } = await boot();
    const payload = readyTake('d', '1', 'pr', 'Spring promo');
    events.emit('deliverable.ready', payload);
    expect(record.windows[0]!.sent).toEqual([[IPC_EVENT, 'deliverable.ready', payload]]);
    // Told when the watcher's turn ends, with a name that says what the take is.
    events.emit('watcher.status', { watching: 1, lastPollAt: null, nextPollInMs: null, failing: false });
    expect(record.notifications).toEqual([
      { title: 'Ready for review', body: 'Spring promo: Voice over · part 1' },
    ]);
  });

  it('shows one desktop notification for a batch of deliveries, not one per take', async () => {
    const { record, events } = await boot();
    events.emit('deliverable.ready', readyTake('d1', '1', 'pr1', 'Spring promo'));
    events.emit('deliverable.ready', readyTake('d2', '2', 'pr1', 'Spring promo'));
    events.emit('deliverable.ready', readyTake('d3', '1', 'pr2', 'Jingle'));
    expect(record.notifications).toEqual([]);
    events.emit('watcher.status', { watching: 2, lastPollAt: null, nextPollInMs: null, failing: false });
    expect(record.notifications).toEqual([
      { title: '3 takes ready for review', body: 'Spring promo (2) · Jingle (1)' },
    ]);
  });

  it('shows no desktop notification when the producer turned "Desktop notification" off', async () => {
    const { record, events, settings } = await boot();
    await settings.set({ notifications: false });
    const payload = readyTake('d', '1', 'pr', 'Spring promo');
    events.emit('deliverable.ready', payload);
    // The window still hears of it (the badge and the list update); only the OS pop-up is withheld.
    expect(record.windows[0]!.sent).toEqual([[IPC_EVENT, 'deliverable.ready', payload]]);
    expect(record.notifications).toEqual([]);
  });

  it('serves the renderer at app://takedesk with a strict CSP, and nothing outside it', async () => {
    const { record } = await boot();
    const handler = record.protocolHandlers.get('app')!;
    const res = await handler(new Request('app://takedesk/index.html'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await res.text()).toContain('name="csp-nonce"');
    expect((await handler(new Request('app://takedesk/../../etc/passwd'))).status).toBe(404);
    expect((await handler(new Request('app://takedesk/%2e%2e/%2e%2e/etc/passwd'))).status).toBe(404);
    expect((await handler(new Request('app://other/index.html'))).status).toBe(404);
    const media = record.protocolHandlers.get('takedesk-media')!;
    expect(await (await media(new Request('takedesk-media://library/abc'))).text()).toBe('lib abc');
    expect(await (await media(new Request('takedesk-media://remote/t1'))).text()).toBe('remote t1');
  });

  it('a malformed escape or a lone surrogate in a protocol URL answers 4xx, never a thrown URIError', async () => {
    const { record } = await boot();
    const app = record.protocolHandlers.get('app')!;
    const media = record.protocolHandlers.get('takedesk-media')!;
    for (const path of ['%E0%A4%A', '%', '%ED%A0%80', 'a%2Fb%ZZ']) {
      expect((await app(new Request(`app://takedesk/${path}`))).status).toBe(404);
      for (const host of ['library', 'remote']) {
        expect((await media(new Request(`takedesk-media://${host}/${path}`))).status).toBe(400);
      }
    }
  });
});

describe('desktop integration', () => {
  const ID = '3f2a6c1e-9b7d-4e21-8a55-0c1d2e3f4a5b';
  const loaded = () => new Promise((r) => setImmediate(r));
  const navigations = (sent: unknown[][]) => sent.filter((m) => m[1] === 'app.navigate').map((m) => m[2]);
  const find = (menu: MenuTemplate, label: string): MenuTemplate[number] | undefined => {
    for (const item of menu) {
      if (item.label === label) return item;
      const inner = item.submenu && find(item.submenu, label);
      if (inner) return inner;
    }
    return undefined;
  };

  it('an AppImage registers takedesk:// and opens a project from a link on first launch, once the page has loaded', async () => {
    const { record } = await boot({
      packaged: true,
      appImage: '/home/p/Takedesk.AppImage',
      argv: ['/opt/Takedesk/takedesk', '--no-sandbox', `takedesk://project/${ID}`],
    });
    expect(record.protocolClients).toEqual([['takedesk']]);
    expect(navigations(record.windows[0]!.sent)).toEqual([]);
    await loaded();
    expect(navigations(record.windows[0]!.sent)).toEqual([{ route: `/projects/${ID}` }]);
  });

  it('a second launch with a link navigates and focuses; a malformed link only focuses', async () => {
    const { electron, record } = await boot();
    await loaded();
    electron.app.emit('second-instance', {}, ['/opt/Takedesk/takedesk', `takedesk://project/${ID}`], '/');
    electron.app.emit(
      'second-instance',
      {},
      ['/opt/Takedesk/takedesk', 'takedesk://project/../../settings'],
      '/',
    );
    expect(navigations(record.windows[0]!.sent)).toEqual([{ route: `/projects/${ID}` }]);
    expect(record.windows[0]!.focused).toBe(2);
  });

  it('macOS open-url is handled and its default prevented; foreign URLs are ignored', async () => {
    const { electron, record } = await boot();
    await loaded();
    const ok = fakeEvent();
    electron.app.emit('open-url', ok, `takedesk://project/${ID}`);
    const bad = fakeEvent();
    electron.app.emit('open-url', bad, 'takedesk://project/1;rm -rf');
    expect(ok.defaultPrevented).toBe(true);
    expect(bad.defaultPrevented).toBe(true);
    expect(navigations(record.windows[0]!.sent)).toEqual([{ route: `/projects/${ID}` }]);
  });

  it('sets a native menu whose clicks reach the renderer as menu.command', async () => {
    const { record } = await boot();
    const menu = record.menu!;
    expect(menu.map((m) => m.label?.replace('&', '') ?? m.role)).toEqual(
      expect.arrayContaining(['File', 'Edit', 'View', 'Review']),
    );
    const approve = find(menu, 'Approve')!;
    expect(approve.accelerator).toBe('CmdOrCtrl+Enter');
    approve.click!();
    find(menu, 'New Project…')!.click!();
    expect(record.windows[0]!.sent.filter((m) => m[1] === 'menu.command').map((m) => m[2])).toEqual([
      { command: 'review.approve' },
      { command: 'project.new' },
    ]);
  });

  it('the About panel carries the app and runtime versions', async () => {
    const { record } = await boot();
    expect(record.aboutOptions).toMatchObject({
      applicationName: 'Takedesk',
      applicationVersion: '0.0.0-test',
    });
    expect(String(record.aboutOptions!.version)).toContain(`Node ${process.versions.node}`);
    const menu = record.menu!;
    find(menu, 'About Takedesk')!.click!();
    expect(record.aboutShown).toBe(1);
  });

  it('shows overall download progress on the taskbar and clears it when downloads end', async () => {
    const { record, events } = await boot();
    const job = (id: string, state: 'downloading' | 'done', bytes: number, total: number | null) =>
      ({ id, state, bytes, total }) as never;
    events.emit('downloads.progress', [{ id: 'a', bytes: 25, total: 100, rate: 1, etaSeconds: 1 }]);
    events.emit('downloads.progress', [{ id: 'b', bytes: 0, total: 300, rate: 1, etaSeconds: 1 }]);
    events.emit('downloads.changed', job('a', 'done', 100, 100));
    events.emit('downloads.progress', [{ id: 'b', bytes: 150, total: 300, rate: 1, etaSeconds: 1 }]);
    events.emit('downloads.progress', [{ id: 'c', bytes: 5, total: null, rate: 1, etaSeconds: null }]);
    events.emit('downloads.changed', job('c', 'done', 9, 9));
    events.emit('downloads.changed', job('b', 'done', 300, 300));
    expect(record.windows[0]!.progress).toEqual([
      [0.25, { mode: 'normal' }],
      [0.06, { mode: 'normal' }],
      [0, { mode: 'normal' }],
      [0.5, { mode: 'normal' }],
      [2, { mode: 'indeterminate' }],
      [0.5, { mode: 'normal' }],
      [-1, { mode: 'none' }],
    ]);
  });

  it('packaged on Linux outside an AppImage: updates are reported unsupported, and never checked', async () => {
    const up = fakeUpdater();
    const { desktop } = await boot({ packaged: true, autoUpdater: up });
    if (process.platform === 'linux' && !process.env.APPIMAGE) {
      expect(desktop.updates.status()).toEqual({ state: 'disabled', reason: 'unsupported' });
    }
    const dev = await boot({ packaged: false, autoUpdater: fakeUpdater() });
    expect(dev.desktop.updates.status()).toEqual({ state: 'disabled', reason: 'dev' });
  });

  it('an update that is ready reaches the renderer and turns the menu item into "Restart to Update"', async () => {
    const up = fakeUpdater();
    const previous = process.env.APPIMAGE;
    process.env.APPIMAGE = '/tmp/Takedesk.AppImage';
    try {
      const { record, desktop } = await boot({ packaged: true, autoUpdater: up });
      expect(find(record.menu!, 'Check for Updates…')).toBeDefined();
      up.emit('update-available', { version: '9.9.9' });
      up.emit('update-downloaded', { version: '9.9.9' });
      expect(desktop.updates.status()).toEqual({ state: 'ready', version: '9.9.9' });
      expect(record.windows[0]!.sent.filter((m) => m[1] === 'updates.status').map((m) => m[2])).toEqual([
        { state: 'available', version: '9.9.9' },
        { state: 'ready', version: '9.9.9' },
      ]);
      find(record.menu!, 'Restart to Update')!.click!();
      expect(up.installs).toBe(1);
    } finally {
      if (previous === undefined) delete process.env.APPIMAGE;
      else process.env.APPIMAGE = previous;
    }
  });

  it('writes a log file through the redaction filter', async () => {
    const { desktop, logDir } = await boot();
    desktop.log.error(
      'sign-in failed',
      new Error('x-access-token: eyJhbGciOiJIUzUxMiJ9.eyJzdWIiOiJ4In0.c2ln'),
    );
    const text = await readFile(join(logDir, 'main.log'), 'utf8');
    expect(text).toContain('Takedesk 0.0.0-test starting');
    expect(text).toContain('sign-in failed');
    expect(text).not.toContain('eyJ');
  });
});

function fakeUpdater() {
  return Object.assign(new EventEmitter(), {
    autoDownload: false,
    autoInstallOnAppQuit: false,
    installs: 0,
    checkForUpdates: async () => null,
    quitAndInstall() {
      this.installs++;
    },
  });
}

describe('registering takedesk:// with the OS', () => {
  it("the .deb's desktop entry is the one Electron names (package.json desktopName), and the package registers links", async () => {
    const pkg = JSON.parse(await readFile(join(import.meta.dirname, '../../../../package.json'), 'utf8'));
    const builder = parseYaml(
      await readFile(join(import.meta.dirname, '../../../../electron-builder.yml'), 'utf8'),
    );
    expect(pkg.desktopName).toBe(`${builder.linux.executableName}.desktop`);
    expect(builder.linux.syncDesktopName).toBe(true);
    // electron-builder derives StartupWMClass from desktopName; a fixed one would no longer match the window.
    expect(builder.linux.desktop.entry.StartupWMClass).toBeUndefined();
    expect(builder.protocols[0].schemes).toEqual(['takedesk']);
  });

  const base = {
    appImage: undefined,
    defaultApp: false,
    execPath: '/usr/bin/electron',
    argv: ['/x/takedesk'],
  };
  it.each([
    ['an installed .deb (its desktop entry registers it)', { packaged: true, platform: 'linux' }, null],
    ['an AppImage (no install step)', { packaged: true, platform: 'linux', appImage: '/a.AppImage' }, []],
    ['NSIS on Windows (the installer writes the registry)', { packaged: true, platform: 'win32' }, null],
    ['a macOS bundle (Info.plist)', { packaged: true, platform: 'darwin' }, null],
    [
      'dev: `electron out/main/index.js`',
      { packaged: false, platform: 'linux', defaultApp: true, argv: ['/e/electron', 'out/main/index.js'] },
      ['/usr/bin/electron', [join(process.cwd(), 'out/main/index.js')]],
    ],
    [
      'dev under Playwright: argv[1] is --inspect=0, the app path comes later',
      {
        packaged: false,
        platform: 'linux',
        defaultApp: true,
        argv: ['/e/electron', '--inspect=0', '--remote-debugging-port=0', '/w/out/main/index.js'],
      },
      ['/usr/bin/electron', ['/w/out/main/index.js']],
    ],
    [
      'dev with no app path at all',
      { packaged: false, platform: 'linux', defaultApp: true, argv: ['/e/electron', '--inspect=0'] },
      null,
    ],
  ] as const)('%s', (_name, context, expected) => {
    expect(protocolClientArgs({ ...base, ...context } as Parameters<typeof protocolClientArgs>[0])).toEqual(
      expected,
    );
  });
});

describe('--smoke-test (the packaged app checks itself in the workflows)', () => {
  const argv = ['/opt/Takedesk/takedesk', '--smoke-test'];
  const until = async (done: () => boolean, ms = 30_000) => {
    const deadline = Date.now() + ms;
    while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  };
  /** The page: the IPC round trip answers; a fetch() goes to the registered media protocol handler, as Chromium's would. */
  const page =
    (record: () => ReturnType<typeof createFakeElectron>['record']) =>
    async (code: string): Promise<unknown> => {
      if (!code.includes('fetch(')) return true;
      const url = /fetch\("([^"]+)"/.exec(code)![1]!;
      const handler = record().protocolHandlers.get('takedesk-media')!;
      const answer = await handler(new Request(url, { headers: { Range: 'bytes=0-1023' } }));
      return {
        status: answer.status,
        bytes: (await answer.arrayBuffer()).byteLength,
        range: answer.headers.get('content-range'),
      };
    };

  it('prints one line per step — window, ipc, sandbox, database, worker (MP3), media (ranged fetch), quit — and exits 0', async () => {
    const lines: string[] = [];
    const original = console.log;
    console.log = (line: string) => void lines.push(line);
    const analyzer = createAnalyzer({ poolSize: 1 });
    let disposed = 0;
    let fake: Awaited<ReturnType<typeof boot>> | undefined;
    try {
      fake = await boot({
        argv,
        pageAnswer: page(() => fake!.record),
        smoke: {
          sandbox: async () => 'the sandbox answered',
          decodeMp3: async (path) => {
            const analysis = await analyzer.analyze(path);
            return `${analyzer.mode} decoded ${analysis.codec} ${analysis.durationSeconds.toFixed(2)} s`;
          },
        },
        dispose: async () => void disposed++,
      });
      await until(() => fake!.record.exits.length > 0);
    } finally {
      console.log = original;
      await analyzer.close();
    }
    expect(fake!.record.exits).toEqual([0]);
    expect(disposed).toBe(1);
    const steps = lines.map((line) => /^takedesk smoke: (ok|FAILED) (\w+)/.exec(line)?.slice(1, 3).join(' '));
    expect(steps).toEqual([
      'ok window',
      'ok ipc',
      'ok sandbox',
      'ok database',
      'ok worker',
      'ok media',
      'ok quit',
      undefined,
    ]);
    expect(lines.at(-1)).toBe('takedesk smoke: passed');
    expect(lines.find((l) => l.includes(' worker:'))).toMatch(/worker decoded mp3 1\.0\d s/);
    expect(lines.find((l) => l.includes(' database:'))).toMatch(/node:sqlite .* wal mode/);
    expect(lines.find((l) => l.includes(' media:'))).toMatch(/206 \(bytes 0-1023\//);
  }, 60_000);

  it('stops at the first step that fails, says which, still stops the services, and exits 1', async () => {
    const lines: string[] = [];
    const original = console.log;
    console.log = (line: string) => void lines.push(line);
    let disposed = 0;
    let failing: Awaited<ReturnType<typeof boot>> | undefined;
    try {
      failing = await boot({
        argv,
        pageAnswer: async () => true,
        smoke: {
          sandbox: async () => {
            throw new Error('The sandbox could not start: spawn EACCES');
          },
          decodeMp3: async () => 'never asked',
        },
        dispose: async () => void disposed++,
      });
      await until(() => failing!.record.exits.length > 0);
    } finally {
      console.log = original;
    }
    expect(failing!.record.exits).toEqual([1]);
    expect(disposed).toBe(1);
    expect(lines).toContain('takedesk smoke: FAILED sandbox: The sandbox could not start: spawn EACCES');
    expect(lines.some((l) => l.includes(' database:'))).toBe(false);
    expect(lines.at(-1)).toBe('takedesk smoke: FAILED');
  });

  it('exits 1 when the IPC round trip answers not ok', async () => {
    const original = console.log;
    console.log = () => undefined;
    try {
      const refused = await boot({ argv, pageAnswer: async () => false });
      await until(() => refused.record.exits.length > 0);
      expect(refused.record.exits).toEqual([1]);
    } finally {
      console.log = original;
    }
  });

  it('does nothing without the switch, and serves no smoke media', async () => {
    const fake = await boot();
    await new Promise((r) => setTimeout(r, 20));
    expect(fake.record.scripts).toEqual([]);
    expect(fake.record.exits).toEqual([]);
    const answer = await fake.record.protocolHandlers.get('takedesk-media')!(
      new Request('takedesk-media://smoke/probe.mp3'),
    );
    expect(answer.status).toBe(404);
  });
});
