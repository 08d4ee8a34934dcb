import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../sandbox/server';
import { startBrowserMode, type BrowserMode } from './browser-mode';

/**
 * Browser mode whole (services, host, media signing) against a real sandbox on 127.0.0.1: the launch secret opens
 * the bridge only from its header, and media only through the capability each media URL carries (issue 24, item 4).
 */
describe('browser mode: the launch secret stays in its tab', () => {
  let dir: string;
  let sandbox: Sandbox;
  let app: BrowserMode;
  let secret: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'takedesk-browser-mode-'));
    await mkdir(join(dir, 'renderer'));
    await writeFile(join(dir, 'renderer', 'index.html'), '<html><head></head><body></body></html>');
    sandbox = await createSandbox({ delivery: 'manual', dataDir: join(dir, 'sandbox') });
    app = await startBrowserMode({
      rendererDir: join(dir, 'renderer'),
      dataDir: join(dir, 'data'),
      libraryDir: join(dir, 'Library'),
      externalSandbox: { url: sandbox.url, token: sandbox.tokens.full },
      revealInOs: false,
    });
    expect(new URL(app.url).pathname).toBe('/open');
    secret = /^#s=([\w-]+)$/.exec(new URL(app.url).hash)![1]!;
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await sandbox?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const call = (channel: string, input: unknown, headers: Record<string, string>) =>
    fetch(`${app.origin}/ipc/${channel}`, {
      method: 'POST',
      headers: { origin: app.origin, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ input }),
    });

  it('refuses a call with the secret as a cookie, or none, and nothing changes', async () => {
    const before = (await app.services.settings.get()).libraryDir;
    for (const headers of [{ cookie: `takedesk_session=${secret}` }, {}] as Array<Record<string, string>>) {
      const res = await call('settings.set', { libraryDir: join(dir, 'Elsewhere') }, headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ ok: false, error: { type: 'BROWSER_SESSION_REQUIRED' } });
      expect((await call('profiles.list', undefined, headers)).status).toBe(401);
    }
    expect((await app.services.settings.get()).libraryDir).toBe(before);
  });

  it('answers the same call with the secret in its header', async () => {
    const res = await call('profiles.list', undefined, { 'x-takedesk-session': secret });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true });
  });

  it('hands out media URLs that play and seek with their capability alone, and not without it', async () => {
    const session = { 'x-takedesk-session': secret };
    const tracks = (await (await call('catalog.tracks', undefined, session)).json()) as {
      ok: boolean;
      value: unknown;
    };
    expect(tracks.ok).toBe(true);
    const link = /"(?:url|mp3|wav)":"(https?:[^"]+)"/.exec(JSON.stringify(tracks.value))?.[1];
    expect(link).toBeTruthy();
    const media = (await (await call('media.remoteUrl', { url: link }, session)).json()) as {
      value: { url: string };
    };
    expect(media.value.url).toMatch(/^\/media\/remote\/[\w%-]+\?c=\d+\.[\w-]{43}$/);
    // As an <audio> element asks: no session header, no cookie, a Range for seeking.
    const ranged = await fetch(`${app.origin}${media.value.url}`, { headers: { range: 'bytes=100-199' } });
    expect(ranged.status).toBe(206);
    expect((await ranged.arrayBuffer()).byteLength).toBe(100);
    const bare = media.value.url.split('?')[0]!;
    for (const headers of [session, { cookie: `takedesk_session=${secret}` }]) {
      expect((await fetch(`${app.origin}${bare}`, { headers })).status).toBe(403);
    }
  });
});
