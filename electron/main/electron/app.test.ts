import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IPC_EVENT, IPC_INVOKE } from '../../../shared/ipc/channels';
import { createEventBus } from '../events';
import type { Router } from '../ipc/router';
import { startElectronApp, type AppServices } from './app';
import { createFakeElectron, fakeEvent } from './fake-electron';
import type { ElectronModule } from './types';

async function boot(options: { singleInstance?: boolean } = {}) {
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
  await startElectronApp(fake.electron as unknown as ElectronModule, {
    preloadPath: '/x/preload.cjs',
    rendererDir: rendererDir,
    createServices: async () => services,
  });
  return { ...fake, events, routed };
}

let rendererDir: string;
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
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      preload: '/x/preload.cjs',
    });
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
});
