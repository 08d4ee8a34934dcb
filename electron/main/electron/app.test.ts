import { EventEmitter } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IPC_EVENT, IPC_INVOKE } from '../../../shared/ipc/channels';
import { createEventBus } from '../events';
import type { Router } from '../ipc/router';
import { startElectronApp, type AppServices, type DesktopHandle } from './app';
import { createFakeElectron, fakeEvent, type MenuTemplate } from './fake-electron';
import type { ElectronModule } from './types';
import type { AutoUpdaterLike } from './updater';

async function boot(
  options: {
    singleInstance?: boolean;
    packaged?: boolean;
    argv?: string[];
    autoUpdater?: AutoUpdaterLike;
    pageAnswer?: () => Promise<unknown>;
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
  const services: AppServices = {
    router,
    events,
    media: {
      library: async (id) => new Response(`lib ${id}`),
      remote: async (token) => new Response(`remote ${token}`),
    },
    windowState: { get: () => undefined, set: () => undefined },
    dispose: async () => undefined,
  };
  let desktop: DesktopHandle | null = null;
  const logDir = join(rendererDir, `logs-${++boots}`);
  await startElectronApp(fake.electron as unknown as ElectronModule, {
    preloadPath: '/x/preload.cjs',
    rendererDir: rendererDir,
    logDir,
    argv: options.argv ?? ['/opt/Takedesk/takedesk'],
    ...(options.autoUpdater ? { autoUpdater: options.autoUpdater } : {}),
    createServices: async (_dir, handle) => {
      desktop = handle;
      return services;
    },
  });
  return { ...fake, events, routed, logDir, desktop: desktop! };
}

let rendererDir: string;
let boots = 0;
beforeAll(async () => {
  rendererDir = await mkdtemp(join(tmpdir(), 'takedesk-renderer-'));
  await writeFile(join(rendererDir, 'index.html'), '<html><head></head><body>app</body></html>');
});
afterAll(() => rm(rendererDir, { recursive: true, force: true }));

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

  it('denies every permission request by default', async () => {
    const { record } = await boot();
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      let answer: boolean | undefined;
      record.permissionRequest!({}, permission, (ok) => (answer = ok));
      expect(answer).toBe(false);
    }
    expect(record.permissionCheck!()).toBe(false);
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
    const payload = {
      profileId: 'p',
      projectId: 'pr',
      projectTitle: 'Spring promo',
      deliverableId: 'd',
      deliverableName: '1',
      serviceSubCategory: 'voice_over',
    };
    events.emit('deliverable.ready', payload);
    expect(record.windows[0]!.sent).toEqual([[IPC_EVENT, 'deliverable.ready', payload]]);
    expect(record.notifications).toEqual([{ title: 'Ready for review', body: 'Spring promo: voice_over 1' }]);
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

  it('registers takedesk:// and opens a project from a link on first launch, once the page has loaded', async () => {
    const { record } = await boot({
      argv: ['/opt/Takedesk/takedesk', '--no-sandbox', `takedesk://project/${ID}`],
    });
    expect(record.protocolClients.map((args) => args[0])).toEqual(['takedesk']);
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

describe('--smoke-test (the packaged app checks itself in the release workflow)', () => {
  const settle = () => new Promise((r) => setTimeout(r, 20));

  it('exits 0 once the renderer loaded and an app.info round trip through the preload answered', async () => {
    const fake = await boot({ argv: ['/opt/Takedesk/takedesk', '--smoke-test'] });
    await settle();
    expect(fake.record.scripts).toEqual([expect.stringContaining('window.takedesk.app.info()')]);
    expect(fake.record.exits).toEqual([0]);
  });

  it('exits 1 when the round trip fails or answers not ok', async () => {
    const failing = await boot({
      argv: ['/opt/Takedesk/takedesk', '--smoke-test'],
      pageAnswer: () => Promise.reject(new Error('takedesk is not defined')),
    });
    const refused = await boot({
      argv: ['/opt/Takedesk/takedesk', '--smoke-test'],
      pageAnswer: async () => false,
    });
    await settle();
    expect(failing.record.exits).toEqual([1]);
    expect(refused.record.exits).toEqual([1]);
  });

  it('does nothing without the switch', async () => {
    const fake = await boot();
    await settle();
    expect(fake.record.scripts).toEqual([]);
    expect(fake.record.exits).toEqual([]);
  });
});
