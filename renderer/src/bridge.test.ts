/* eslint-disable no-restricted-imports -- test-only, runs under Node: a real 127.0.0.1 server plays the browser-mode host. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// Node's own fetch (happy-dom's applies page CORS rules); bridge.ts builds its default client from `window` on import.
vi.stubGlobal('window', { fetch: globalThis.fetch });
const { createBrowserTransport } = await import('./bridge');

// A real HTTP server on 127.0.0.1 plays the browser-mode host: envelopes on /ipc, an SSE stream on /events.
let server: Server;
let base = '';
const received: unknown[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
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
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('browser transport', () => {
  it('posts {input} to /ipc/<channel> and returns the envelope as sent', async () => {
    const t = createBrowserTransport({
      fetch: globalThis.fetch,
      createEventSource: () => ({}) as EventSource,
      base,
    });
    const result = await t.invoke('app.info', { a: 1 });
    expect(received).toEqual([{ input: { a: 1 } }]);
    expect(result).toEqual({ ok: false, error: { type: 'FORBIDDEN', status: 403, message: 'no' } });
  });

  it('turns a non-envelope answer and an unreachable host into client errors', async () => {
    const t = createBrowserTransport({
      fetch: globalThis.fetch,
      createEventSource: () => ({}) as EventSource,
      base,
    });
    expect(await t.invoke('settings.get', undefined)).toMatchObject({
      ok: false,
      error: { type: 'UNEXPECTED_RESPONSE' },
    });
    const dead = createBrowserTransport({
      fetch: globalThis.fetch,
      createEventSource: () => ({}) as EventSource,
      base: 'http://127.0.0.1:1',
    });
    expect(await dead.invoke('app.info', undefined)).toMatchObject({
      ok: false,
      error: { type: 'NETWORK_UNREACHABLE', status: 0 },
    });
  });

  it('fans /events messages out to the listeners of their event, until unsubscribed', () => {
    const source = { onmessage: null as ((m: MessageEvent<string>) => void) | null, close() {} };
    let opened = 0;
    const t = createBrowserTransport({
      fetch: globalThis.fetch,
      createEventSource: (url) => {
        opened++;
        expect(url).toBe(`${base}/events`);
        return source as unknown as EventSource;
      },
      base,
    });
    const got: unknown[] = [];
    const off = t.subscribe('library.changed', (p) => got.push(p));
    t.subscribe('watcher.status', () => got.push('wrong'));
    const send = (data: string) => source.onmessage?.({ data } as MessageEvent<string>);
    send(JSON.stringify({ event: 'library.changed', payload: { count: 2 } }));
    send('not json');
    off();
    send(JSON.stringify({ event: 'library.changed', payload: { count: 3 } }));
    expect(got).toEqual([{ count: 2 }]);
    expect(opened).toBe(1);
  });
});
