import { request as httpRequest } from 'node:http';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventBus } from '../../kernel/events';
import { createRouter, type Handlers, type Router } from '../ipc/router';
import { startBrowserHost, type BrowserHost } from './browser-host';
import { createMediaSigner } from './media-capability';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** node:http, so the test can send the Host and Origin headers an attacker's page or a rebinding DNS would. */
function send(
  port: number,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Promise<Reply>((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: init.headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    if (init.body) req.write(init.body);
    req.end();
  });
}

describe('browser-mode host', () => {
  let dir: string;
  let host: BrowserHost;
  const signer = createMediaSigner();
  const events = createEventBus();
  const calls: Array<{ channel: unknown; input: unknown }> = [];
  const router: Router = {
    async invoke(channel, input, ctx) {
      calls.push({ channel, input });
      return { ok: true, value: { channel, input, transport: ctx.transport } };
    },
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'takedesk-host-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), '<html><head><title>T</title></head><body></body></html>');
    await writeFile(join(dir, 'assets', 'app.js'), 'console.log(1)');
    host = await startBrowserHost({
      router,
      events,
      rendererDir: dir,
      secret: 's3cret-value',
      mediaSigner: signer,
      media: {
        library: async (id) => new Response(`library:${id}`),
        remote: async (token) => new Response(`remote:${token}`),
      },
    });
  });
  afterAll(async () => {
    await host.close();
    await rm(dir, { recursive: true, force: true });
  });

  const own = () => ({ host: `127.0.0.1:${host.port}`, 'x-takedesk-session': 's3cret-value' });
  const page = () => ({ host: `127.0.0.1:${host.port}` });

  it('prints a URL with the launch secret in its fragment, which no request carries, and sets no cookie', async () => {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/open#s=s3cret-value`);
    const res = await send(host.port, '/open', { headers: page() });
    expect(res.status).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('serves the app with a strict CSP and a per-load nonce (the page itself needs no secret)', async () => {
    const a = await send(host.port, '/', { headers: page() });
    const b = await send(host.port, '/', { headers: page() });
    expect(a.status).toBe(200);
    const csp = String(a.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    const nonceA = /content="([^"]+)"/.exec(a.body)?.[1];
    const nonceB = /content="([^"]+)"/.exec(b.body)?.[1];
    expect(nonceA).toBeTruthy();
    expect(csp).toContain(`'nonce-${nonceA}'`);
    expect(nonceA).not.toBe(nonceB);
    expect((await send(host.port, '/assets/app.js', { headers: page() })).body).toBe('console.log(1)');
  });

  it('runs an IPC call through the router with the browser transport', async () => {
    const res = await send(host.port, '/ipc/projects.list', {
      method: 'POST',
      headers: { ...own(), origin: `http://127.0.0.1:${host.port}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { page: 2 } }),
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({
      ok: true,
      value: { channel: 'projects.list', input: { page: 2 }, transport: 'browser' },
    });
  });

  it('answers a clear error for a body that is not JSON', async () => {
    const res = await send(host.port, '/ipc/projects.list', {
      method: 'POST',
      headers: { ...own(), origin: `http://127.0.0.1:${host.port}` },
      body: '{nope',
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.type).toBe('VALIDATION_ERROR');
  });

  describe('attacks it stops', () => {
    it('DNS rebinding: a foreign Host header gets 403 even with the cookie', async () => {
      const res = await send(host.port, '/ipc/profiles.list', {
        method: 'POST',
        headers: { ...own(), host: `evil.example:${host.port}`, origin: `http://evil.example:${host.port}` },
        body: '{}',
      });
      expect(res.status).toBe(403);
    });

    it('another local page: a foreign Origin gets 403', async () => {
      const res = await send(host.port, '/ipc/profiles.list', {
        method: 'POST',
        headers: { ...own(), origin: 'http://127.0.0.1:9' },
        body: '{}',
      });
      expect(res.status).toBe(403);
    });

    it('a cross-site no-cors request (Sec-Fetch-Site: cross-site) gets 403', async () => {
      const res = await send(host.port, signer.sign('/media/library/x'), {
        headers: { ...own(), 'sec-fetch-site': 'same-site' },
      });
      expect(res.status).toBe(403);
    });

    it('a state change without Origin (form post, curl from a script) gets 403', async () => {
      const res = await send(host.port, '/ipc/profiles.list', { method: 'POST', headers: own(), body: '{}' });
      expect(res.status).toBe(403);
    });

    it('no session header, no access: IPC and events answer 401 with a typed error', async () => {
      const origin = `http://127.0.0.1:${host.port}`;
      const before = calls.length;
      const ipc = await send(host.port, '/ipc/settings.set', {
        method: 'POST',
        headers: { ...page(), origin },
        body: JSON.stringify({ input: { libraryDir: '/tmp/elsewhere' } }),
      });
      expect(ipc.status).toBe(401);
      expect(JSON.parse(ipc.body)).toMatchObject({ ok: false, error: { type: 'BROWSER_SESSION_REQUIRED' } });
      const events = await send(host.port, '/events', { headers: page() });
      expect(events.status).toBe(401);
      expect(calls.length).toBe(before);
    });

    it('the old cookie, or the secret anywhere but its header, opens nothing (issue 24, item 4)', async () => {
      const origin = `http://127.0.0.1:${host.port}`;
      const before = calls.length;
      for (const headers of [
        { ...page(), origin, cookie: 'takedesk_session=s3cret-value' },
        { ...page(), origin, authorization: 'Bearer s3cret-value' },
        { ...page(), origin, 'x-takedesk-session': 's3cret-valuf' },
      ]) {
        const res = await send(host.port, '/ipc/profiles.list', { method: 'POST', headers, body: '{}' });
        expect(res.status).toBe(401);
      }
      const query = await send(host.port, '/ipc/profiles.list?k=s3cret-value', {
        method: 'POST',
        headers: { ...page(), origin },
        body: '{}',
      });
      expect(query.status).toBe(401);
      expect(calls.length).toBe(before);
    });

    it('a path spelled otherwise (escaped, doubled slashes, another case) still needs the header', async () => {
      const origin = `http://127.0.0.1:${host.port}`;
      const before = calls.length;
      for (const path of [
        '/%69pc/profiles.list',
        '//ipc/profiles.list',
        '/ipc//profiles.list',
        '/IPC/profiles.list',
      ]) {
        const res = await send(host.port, path, {
          method: 'POST',
          headers: { ...page(), origin },
          body: '{}',
        });
        expect(res.status, path).toBeGreaterThanOrEqual(400);
      }
      for (const path of ['/%65vents', '/events/', '//events']) {
        const res = await send(host.port, path, { headers: page() });
        expect(res.headers['content-type'] ?? '', path).not.toContain('text/event-stream');
      }
      expect(calls.length).toBe(before);
    });

    it('media needs a capability signed for its own path; the session header or cookie is not one', async () => {
      const good = signer.sign('/media/library/abc');
      expect(good).toMatch(/^\/media\/library\/abc\?c=\d+\.[\w-]{43}$/);
      expect((await send(host.port, good, { headers: page() })).body).toBe('library:abc');
      const capability = good.split('?')[1]!;
      for (const path of [
        '/media/library/abc',
        `/media/library/other?${capability}`,
        `/media/remote/abc?${capability}`,
        `/media/library/abc?${capability.slice(0, -2)}xx`,
        `/media/library/abc?${createMediaSigner().sign('/media/library/abc').split('?')[1]!}`,
      ]) {
        const res = await send(host.port, path, {
          headers: { ...own(), cookie: 'takedesk_session=s3cret-value' },
        });
        expect(res.status, path).toBe(403);
      }
      const expired = createMediaSigner({ key: Buffer.alloc(32, 1), ttlMs: -1 });
      const late = await startBrowserHost({
        router,
        events,
        rendererDir: dir,
        mediaSigner: expired,
        media: { library: async () => new Response('bytes'), remote: async () => new Response('') },
      });
      try {
        const res = await send(late.port, expired.sign('/media/library/abc'), {
          headers: { host: `127.0.0.1:${late.port}` },
        });
        expect(res.status).toBe(403);
        expect(res.body).toMatch(/expired/);
      } finally {
        await late.close();
      }
    });

    it('oversized bodies are refused before parsing', async () => {
      const res = await send(host.port, '/ipc/projects.create', {
        method: 'POST',
        headers: { ...own(), origin: `http://127.0.0.1:${host.port}` },
        body: JSON.stringify({ input: 'x'.repeat(3 * 1024 * 1024) }),
      });
      expect(res.status).toBe(413);
    });
  });

  describe('bodies are counted as they arrive (issue 13, item 6)', () => {
    /** Streams `total` bytes of a JSON string with no Content-Length (chunked), as fast as the server takes them. */
    function streamChunked(total: number) {
      return new Promise<{ status: number; body: string; sent: number; error?: string }>((resolve) => {
        const chunk = Buffer.alloc(64 * 1024, 'x');
        let sent = 0;
        let answered = false;
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port: host.port,
            path: '/ipc/projects.create',
            method: 'POST',
            headers: {
              ...own(),
              origin: `http://127.0.0.1:${host.port}`,
              'content-type': 'application/json',
            },
          },
          (res) => {
            answered = true;
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body, sent }));
            res.on('error', () => resolve({ status: res.statusCode ?? 0, body, sent }));
          },
        );
        req.on('error', (e) => {
          if (!answered) resolve({ status: 0, body: '', sent, error: e.message });
        });
        req.write('{"input":{"body":{"title":"');
        const pump = () => {
          while (!answered && !req.destroyed && sent < total) {
            sent += chunk.length;
            if (!req.write(chunk)) return void req.once('drain', pump);
          }
          if (!answered && !req.destroyed) req.end('"}}}');
        };
        pump();
      });
    }

    it('a chunked 64 MiB POST answers 413 early, and the host does not hold it in memory', async () => {
      const total = 64 * 1024 * 1024;
      global.gc?.();
      const before = process.memoryUsage();
      const reply = await streamChunked(total);
      const after = process.memoryUsage();
      expect(reply.error).toBeUndefined();
      expect(reply.status).toBe(413);
      expect(JSON.parse(reply.body)).toMatchObject({ ok: false, error: { type: 'VALIDATION_ERROR' } });
      // It stopped reading near the 2 MiB limit: the client was answered long before it had sent everything.
      expect(reply.sent).toBeLessThan(16 * 1024 * 1024);
      expect(after.heapUsed - before.heapUsed).toBeLessThan(16 * 1024 * 1024);
      expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(16 * 1024 * 1024);
    });

    it('a chunked body under the limit still runs', async () => {
      const reply = await streamChunked(256 * 1024);
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.body)).toMatchObject({ ok: true, value: { channel: 'projects.create' } });
    });

    it('the host answers normally after refusing a body', async () => {
      await streamChunked(8 * 1024 * 1024);
      const res = await send(host.port, '/ipc/projects.list', {
        method: 'POST',
        headers: { ...own(), origin: `http://127.0.0.1:${host.port}` },
        body: JSON.stringify({ input: { page: 1 } }),
      });
      expect(res.status).toBe(200);
    });
  });

  describe('prototype keys as channel names, through the real router (issue 13, item 8)', () => {
    let real: BrowserHost;
    beforeAll(async () => {
      const handlers = new Proxy({} as Handlers, { get: () => () => 'ran' });
      real = await startBrowserHost({
        router: createRouter({ handlers }),
        events,
        rendererDir: dir,
        secret: 's3cret-value',
        media: { library: async () => new Response(''), remote: async () => new Response('') },
      });
    });
    afterAll(() => real.close());

    it.each([
      'constructor',
      '__proto__',
      'toString',
      'hasOwnProperty',
      'valueOf',
      '__defineGetter__',
      '%E0%A4%A',
      '%ED%A0%80',
      '%00',
      'projects.list%2F..',
    ])('POST /ipc/%s answers "unknown channel", not a server error', async (name) => {
      const res = await send(real.port, `/ipc/${name}`, {
        method: 'POST',
        headers: {
          host: `127.0.0.1:${real.port}`,
          'x-takedesk-session': 's3cret-value',
          origin: `http://127.0.0.1:${real.port}`,
        },
        body: JSON.stringify({ input: {} }),
      });
      expect(res.status).toBeLessThan(500);
      expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { type: 'VALIDATION_ERROR' } });
      expect(JSON.parse(res.body).error.message).toMatch(/Unknown channel/);
    });
  });

  it('routes media requests to the resolver', async () => {
    expect((await send(host.port, signer.sign('/media/library/abc'), { headers: page() })).body).toBe(
      'library:abc',
    );
    expect((await send(host.port, signer.sign('/media/remote/t1'), { headers: page() })).body).toBe(
      'remote:t1',
    );
  });

  it('streams events as SSE', async () => {
    const received = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: host.port, path: '/events', headers: own() },
        (res) => {
          res.setEncoding('utf8');
          let buffer = '';
          res.on('data', (chunk: string) => {
            buffer += chunk;
            if (buffer.includes('watcher.status')) {
              req.destroy();
              resolve(buffer);
            }
          });
        },
      );
      req.on('error', (e) => (e.message.includes('aborted') ? undefined : reject(e)));
      req.end();
      setTimeout(
        () =>
          events.emit('watcher.status', { watching: 1, lastPollAt: null, nextPollInMs: 5, failing: false }),
        100,
      );
    });
    const line = received.split('\n').find((l) => l.startsWith('data: {"event"'));
    expect(JSON.parse(line!.slice(6))).toEqual({
      event: 'watcher.status',
      payload: { watching: 1, lastPollAt: null, nextPollInMs: 5, failing: false },
    });
  });
});
