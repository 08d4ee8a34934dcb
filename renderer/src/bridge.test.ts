/* eslint-disable no-restricted-imports -- test-only, runs under Node: a real 127.0.0.1 server plays the browser-mode host. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// Node's own fetch (happy-dom's applies page CORS rules); bridge.ts builds its default client from `window` on import.
vi.stubGlobal('window', { fetch: globalThis.fetch });
const { createBrowserTransport, takeSessionSecret, SESSION_KEY } = await import('./bridge');

// A real HTTP server on 127.0.0.1 plays the browser-mode host: envelopes on /ipc, an SSE stream on /events.
let server: Server;
let base = '';
const received: unknown[] = [];
const sessionsSeen: Array<string | undefined> = [];
/** The open /events responses, for the test to write SSE blocks to. */
const streams: ServerResponse[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    sessionsSeen.push(req.headers['x-takedesk-session'] as string | undefined);
    if (req.url === '/events') {
      if (req.headers['x-takedesk-session'] !== 'tab-secret') {
        res.statusCode = 401;
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      streams.push(res);
      return;
    }
    if (req.url === '/ipc/app.info' && req.method === 'POST') {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push(JSON.parse(body));
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ ok: false, error: { type: 'FORBIDDEN', status: 403, message: 'no' } }));
      });
      return;
    }
    if (req.url === '/ipc/settings.get') {
      res.statusCode = 502;
      res.end('<html>bad gateway</html>');
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

describe('browser transport', () => {
  it('posts {input} to /ipc/<channel> and returns the envelope as sent', async () => {
    const t = createBrowserTransport({
      fetch: globalThis.fetch,
      session: () => null,
      base,
    });
    const result = await t.invoke('app.info', { a: 1 });
    expect(received).toEqual([{ input: { a: 1 } }]);
    expect(result).toEqual({ ok: false, error: { type: 'FORBIDDEN', status: 403, message: 'no' } });
  });

  it('turns a non-envelope answer and an unreachable host into client errors', async () => {
    const t = createBrowserTransport({
      fetch: globalThis.fetch,
      session: () => null,
      base,
    });
    expect(await t.invoke('settings.get', undefined)).toMatchObject({
      ok: false,
      error: { type: 'UNEXPECTED_RESPONSE' },
    });
    const dead = createBrowserTransport({
      fetch: globalThis.fetch,
      session: () => null,
      base: 'http://127.0.0.1:1',
    });
    expect(await dead.invoke('app.info', undefined)).toMatchObject({
      ok: false,
      error: { type: 'NETWORK_UNREACHABLE', status: 0 },
    });
  });

  it("sends the tab's secret in its header on every call, and nothing when the tab has none", async () => {
    sessionsSeen.length = 0;
    await createBrowserTransport({ fetch: globalThis.fetch, session: () => 'tab-secret', base }).invoke(
      'app.info',
      undefined,
    );
    await createBrowserTransport({ fetch: globalThis.fetch, session: () => null, base }).invoke(
      'app.info',
      undefined,
    );
    expect(sessionsSeen).toEqual(['tab-secret', undefined]);
  });

  it('reads /events with the secret header and fans messages out to their listeners, until unsubscribed', async () => {
    const t = createBrowserTransport({ fetch: globalThis.fetch, session: () => 'tab-secret', base });
    const got: unknown[] = [];
    const off = t.subscribe('library.changed', (p) => got.push(p));
    t.subscribe('watcher.status', () => got.push('wrong'));
    await vi.waitFor(() => expect(streams).toHaveLength(1));
    const stream = streams[0]!;
    // One block split across writes, a ping (a named event), a bad block, then one after unsubscribing.
    stream.write('data: {"event":"library.changed",');
    stream.write('"payload":{"count":2}}\n\n');
    stream.write('event: ping\ndata: {}\n\n');
    stream.write('data: not json\r\n\r\n');
    await vi.waitFor(() => expect(got).toEqual([{ count: 2 }]));
    off();
    stream.write(`data: ${JSON.stringify({ event: 'library.changed', payload: { count: 3 } })}\n\n`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(got).toEqual([{ count: 2 }]);
    t.close();
  });

  it('opens the stream again after the host ends it', async () => {
    streams.length = 0;
    const t = createBrowserTransport({
      fetch: globalThis.fetch,
      session: () => 'tab-secret',
      base,
      reconnectMs: 10,
    });
    const got: unknown[] = [];
    t.subscribe('library.changed', (p) => got.push(p));
    await vi.waitFor(() => expect(streams).toHaveLength(1));
    streams[0]!.end();
    await vi.waitFor(() => expect(streams).toHaveLength(2));
    streams[1]!.write('data: {"event":"library.changed","payload":{"count":4}}\n\n');
    await vi.waitFor(() => expect(got).toEqual([{ count: 4 }]));
    t.close();
  });
});

describe('the launch secret in the URL fragment', () => {
  function tab(url: string, stored: Record<string, string> = {}) {
    const location = new URL(url);
    const storage = new Map(Object.entries(stored));
    return {
      location,
      history: {
        state: null,
        replaceState: (_: unknown, __: string, next: string) => {
          const moved = new URL(next, location);
          location.href = moved.href;
        },
      },
      sessionStorage: {
        setItem: (k: string, v: string) => void storage.set(k, v),
        getItem: (k: string) => storage.get(k) ?? null,
      },
      storage,
    };
  }

  it('moves #s=<secret> to sessionStorage and out of the address bar, keeping a route after it', () => {
    const win = tab('http://127.0.0.1:5000/open#s=abc_DEF-123#/review/d1?projectId=p1');
    expect(takeSessionSecret(win as unknown as Window)).toBe('abc_DEF-123');
    expect(win.storage.get(SESSION_KEY)).toBe('abc_DEF-123');
    expect(win.location.href).toBe('http://127.0.0.1:5000/#/review/d1?projectId=p1');
    const bare = tab('http://127.0.0.1:5000/open#s=xyz');
    expect(takeSessionSecret(bare as unknown as Window)).toBe('xyz');
    expect(bare.location.href).toBe('http://127.0.0.1:5000/');
  });

  it('finds it in sessionStorage after a reload, and has none in a tab never given it', () => {
    expect(
      takeSessionSecret(
        tab('http://127.0.0.1:5000/#/projects', { [SESSION_KEY]: 'kept' }) as unknown as Window,
      ),
    ).toBe('kept');
    expect(takeSessionSecret(tab('http://127.0.0.1:5000/#/projects') as unknown as Window)).toBeNull();
  });
});
