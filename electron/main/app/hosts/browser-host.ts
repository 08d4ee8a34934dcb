import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context, type Next } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { EventBus } from '../../kernel/events';
import type { MediaResolver } from '../../media/media-registry';
import type { Router } from '../ipc/router';
import { buildCsp, createNonce, injectNonce } from '../../security/csp';
import { createMediaSigner, type MediaSigner } from './media-capability';

// The media routes' resolver is the media registry's interface; both shells serve it.
export type { MediaResolver } from '../../media/media-registry';

export interface BrowserHostOptions {
  router: Router;
  events: EventBus;
  media: MediaResolver;
  /** Built renderer (out/renderer). */
  rendererDir: string;
  port?: number;
  /** Per-launch secret; random when not given. */
  secret?: string;
  /** Signs and checks media URLs; one with a fresh key when not given (browser mode shares it with the services). */
  mediaSigner?: MediaSigner;
  /** Largest IPC request body accepted. */
  maxBodyBytes?: number;
}

export interface BrowserHost {
  /**
   * The URL to open, `/open#s=<secret>`: a fragment is never sent to any server, and the page moves the secret to
   * sessionStorage and itself to `/` at once (opening it again loads the page anew, as a different path).
   */
  url: string;
  origin: string;
  port: number;
  close(): Promise<void>;
}

/** The path of the printed URL; like every other path, it serves the page. */
const LAUNCH_PATH = '/open';

/** The header the page sends the launch secret in, on every IPC call and on the event stream. */
export const SESSION_HEADER = 'x-takedesk-session';

/**
 * Browser mode: the same router as Electron IPC, over HTTP on 127.0.0.1. Guards: a per-launch secret (a header on
 * IPC and events, a signed capability on media URLs), the Host header (stops DNS rebinding), Origin and
 * Sec-Fetch-Site (stop other local pages). The page and its assets hold nothing secret and need none of them.
 */
export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const secret = options.secret ?? randomBytes(24).toString('base64url');
  const maxBody = options.maxBodyBytes ?? 2 * 1024 * 1024;
  const signer = options.mediaSigner ?? createMediaSigner();
  let port = 0;
  const allowedHosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];
  const origins = () => allowedHosts().map((host) => `http://${host}`);

  const app = new Hono();

  app.use('*', async (c: Context, next: Next) => {
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('Cross-Origin-Opener-Policy', 'same-origin');
    c.header('Cross-Origin-Resource-Policy', 'same-origin');
    c.header('X-Frame-Options', 'DENY');
    const host = c.req.header('host') ?? '';
    if (!allowedHosts().includes(host)) return c.text('Forbidden host', 403);
    const origin = c.req.header('origin');
    if (origin !== undefined && !origins().includes(origin)) return c.text('Forbidden origin', 403);
    const site = c.req.header('sec-fetch-site');
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return c.text('Forbidden site', 403);
    // State changes need an Origin: a form post or a no-cors request from elsewhere never gets through.
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && origin === undefined) {
      return c.text('Forbidden: missing Origin', 403);
    }
    await next();
  });

  // The secret travels in a header the page adds itself, never in a cookie: cookies are not scoped by port, so
  // any other local page in the same browser would receive one (issue 24, item 4).
  const requireSession = async (c: Context, next: Next) => {
    if (!sameSecret(c.req.header(SESSION_HEADER) ?? '', secret)) {
      return c.json({ ok: false, error: sessionRequired() }, 401);
    }
    await next();
  };
  app.use('/ipc/*', requireSession);
  app.use('/events', requireSession);

  // Media elements cannot send headers: each media URL carries a capability signed for its own path.
  app.use('/media/*', async (c: Context, next: Next) => {
    const check = signer.verify(new URL(c.req.url).pathname, c.req.query('c'));
    if (check === 'expired') return c.text('This media link has expired: open the take again.', 403);
    if (check !== 'ok') return c.text('This media link is not valid in this session.', 403);
    await next();
  });

  app.post('/ipc/:channel', async (c) => {
    // Counted as the bytes arrive, chunked or not (issue 13, item 6): past the limit nothing more is read, the
    // answer is 413 and the connection closes, so a huge body never sits in memory.
    const refuse = () => c.json({ ok: false, error: tooLarge() }, 413, { connection: 'close' });
    if (Number(c.req.header('content-length') ?? '0') > maxBody) return refuse();
    let input: unknown;
    try {
      const text = await readBody(c.req.raw, maxBody);
      if (text === null) return refuse();
      const body = text ? (JSON.parse(text) as unknown) : {};
      input = body && typeof body === 'object' && 'input' in body ? body.input : undefined;
    } catch {
      return c.json(
        { ok: false, error: { type: 'VALIDATION_ERROR', status: 0, message: 'Body is not JSON.' } },
        400,
      );
    }
    return c.json(await options.router.invoke(c.req.param('channel'), input, { transport: 'browser' }));
  });

  app.get('/events', (c) =>
    streamSSE(c, async (stream) => {
      const detach = options.events.attach((event, payload) => {
        void stream.writeSSE({ data: JSON.stringify({ event, payload }) });
      });
      const heartbeat = setInterval(() => void stream.writeSSE({ event: 'ping', data: '{}' }), 15_000);
      await new Promise<void>((resolve) => stream.onAbort(resolve));
      clearInterval(heartbeat);
      detach();
    }),
  );

  app.on(['GET', 'HEAD'], '/media/library/:id', (c) => options.media.library(c.req.param('id'), c.req.raw));
  app.on(['GET', 'HEAD'], '/media/remote/:token', (c) =>
    options.media.remote(c.req.param('token'), c.req.raw),
  );

  app.use('/assets/*', serveStatic({ root: options.rendererDir }));
  app.get('*', async (c) => {
    // Every other path is the single-page app (hash routing): index.html with a fresh CSP nonce.
    let html: string;
    try {
      html = await readFile(join(options.rendererDir, 'index.html'), 'utf8');
    } catch {
      return c.text('The renderer is not built yet: run `npm run build`.', 503);
    }
    const nonce = createNonce();
    c.header('Content-Security-Policy', buildCsp({ nonce }));
    c.header('Cache-Control', 'no-store');
    return c.html(injectNonce(html, nonce));
  });

  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: options.port ?? 0 }, () => resolve(s));
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}${LAUNCH_PATH}#s=${secret}`,
    origin,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sameSecret(given: string, secret: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The request body as text, or null as soon as it passes `max` bytes (the rest is left unread). */
async function readBody(request: Request, max: number): Promise<string | null> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      void reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function sessionRequired() {
  return {
    type: 'BROWSER_SESSION_REQUIRED',
    status: 0,
    // The catalog's hint says what to do (open the printed URL); this says what happened.
    message:
      'This tab was not opened from the URL Takedesk printed, so it does not hold this launch’s secret.',
  };
}

function tooLarge() {
  return { type: 'VALIDATION_ERROR', status: 0, message: 'Request body too large.' };
}
