/**
 * Test helpers for the API client: a lossy proxy in front of the sandbox (for "the answer was lost"
 * cases), sandbox control calls, and a local stand-in for the live service. Used by *.test.ts only.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does with the next request that matches. */
export type DropMode =
  /** Forward, let the sandbox act, then destroy the socket before any byte of the answer. */
  | 'after-forward'
  /** Destroy the socket without forwarding (the sandbox never sees the request). */
  | 'before-forward'
  /** Hold the request without an answer until the proxy closes (the sandbox never sees it). */
  | 'hang'
  /** Hold the request until `release()`, then forward it: a service that answers late. */
  | 'hold'
  /**
   * Answer it with `status` (and `headers`) without forwarding: a gateway's 502/503/504, a 429. With `forward`, the
   * request reaches the sandbox first, which acts, and the answer is replaced: a gateway that gave up waiting.
   */
  | { status: number; headers?: Record<string, string>; forward?: boolean };

/** A fault proxy between main and the sandbox, on 127.0.0.1. */
export interface LossyProxy {
  url: string;
  /** Applies `mode` to the next `count` requests with this method and path prefix. */
  drop(method: string, pathPrefix: string, mode: DropMode, count?: number): void;
  /** Forgets the rules no request has used yet. */
  clear(): void;
  /** Forwards the requests held by `hold` rules (their answers then come as usual). */
  release(): void;
  /** How many requests `hold` rules hold now. */
  holding(): number;
  /** Requests the proxy forwarded to the sandbox, as "METHOD path". */
  forwarded: string[];
  /** Stops listening (connections are refused: ECONNREFUSED), or listens again on the same port. */
  setDown(down: boolean): Promise<void>;
  close(): Promise<void>;
}

interface Rule {
  method: string;
  pathPrefix: string;
  mode: DropMode;
  remaining: number;
}

/** A proxy on 127.0.0.1 that forwards to `target` and can lose answers on purpose. */
export async function startLossyProxy(target: string): Promise<LossyProxy> {
  const rules: Rule[] = [];
  const forwarded: string[] = [];
  const held: Array<() => void> = [];
  const targetUrl = new URL(target);

  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    const rule = rules.find(
      (r) => r.remaining > 0 && r.method === req.method && path.startsWith(r.pathPrefix),
    );
    if (rule) rule.remaining--;
    if (rule?.mode === 'before-forward') {
      req.socket.destroy();
      return;
    }
    if (rule?.mode === 'hang') {
      req.resume();
      return;
    }
    if (rule && typeof rule.mode === 'object' && !rule.mode.forward) {
      req.resume();
      res.writeHead(rule.mode.status, { 'content-type': 'text/html', ...rule.mode.headers });
      res.end(`<html><body>${rule.mode.status} from the gateway</body></html>`);
      return;
    }
    if (rule?.mode === 'hold') {
      held.push(() => forward(req, res, path, undefined));
      return;
    }
    forward(req, res, path, rule);
  });
  const forward = (req: IncomingMessage, res: ServerResponse, path: string, rule: Rule | undefined) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      forwarded.push(`${req.method} ${path}`);
      const upstream = httpRequest(
        {
          host: targetUrl.hostname,
          port: targetUrl.port,
          method: req.method,
          path,
          headers: { ...req.headers, host: targetUrl.host },
        },
        (answer: IncomingMessage) => {
          if (rule?.mode === 'after-forward') {
            // The sandbox has acted; the client never learns it.
            answer.resume();
            answer.on('end', () => req.socket.destroy());
            return;
          }
          if (rule && typeof rule.mode === 'object') {
            // The sandbox has acted; the client hears only the gateway.
            const { status, headers } = rule.mode;
            answer.resume();
            answer.on('end', () => {
              res.writeHead(status, { 'content-type': 'text/html', ...headers });
              res.end(`<html><body>${status} from the gateway</body></html>`);
            });
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => req.socket.destroy());
      upstream.end(Buffer.concat(chunks));
    });
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let down = false;
  return {
    url: `http://127.0.0.1:${port}`,
    drop(method, pathPrefix, mode, count = 1) {
      rules.push({ method, pathPrefix, mode, remaining: count });
    },
    clear() {
      rules.length = 0;
    },
    release() {
      for (const send of held.splice(0)) send();
    },
    holding: () => held.length,
    forwarded,
    async setDown(next) {
      if (next === down) return;
      down = next;
      if (next) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      } else await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        if (down) resolve();
        else server.close(() => resolve());
      }),
  };
}

/** Calls a /_sandbox/ control route with a sandbox token. */
export async function sandboxControl(
  baseUrl: string,
  token: string,
  method: 'POST' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'x-access-token': token, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${path} -> ${response.status} ${await response.text()}`);
  return response.json();
}

// One path segment as a well-behaved client sends it: percent-encoded, never a dot segment.
const SEG = String.raw`(?!\.{1,2}(?:[/?]|$))(?!(?:%2e|\.){1,2}(?:[/?]|$))[^/?#\\]+`;
/** Every endpoint of docs/service.md#endpoints, as "METHOD path" patterns. */
export const SPEC_ENDPOINTS: readonly RegExp[] = [
  'GET /projects',
  'POST /projects',
  'GET /projects/{}',
  'PUT /projects/{}',
  'GET /search',
  'GET /deliverables/project/{}',
  'PUT /deliverables/project/{}',
  'GET /deliverables/{}',
  'PUT /deliverables/{}',
  'GET /revisions/{}/versions',
  'POST /revisions/{}',
  'GET /categories',
  'GET /categories/{}/attributes',
  'GET /categories/{}/attribute/{}/values',
  'GET /tracks',
  'GET /tracks/{}',
  'POST /quote',
  'POST /users/auth',
].map((template) => new RegExp(`^${template.replaceAll('{}', SEG)}(?:\\?[^#]*)?$`, 'i'));

/** Whether a recorded "METHOD path" request targets one of the spec's endpoints. */
export function isSpecRequest(request: string): boolean {
  return SPEC_ENDPOINTS.some((pattern) => pattern.test(request));
}

/** Ids that must never leave their path segment: each answers VALIDATION_ERROR and no request is sent. */
export const HOSTILE_IDS: readonly string[] = [
  '..',
  '.',
  '%2e%2e',
  '.%2E',
  'a/b',
  '../projects',
  'a\\b',
  '..\\..',
  '\ud800',
  'x\udfffy',
  '?x',
  'a?status=canceled',
  '#',
  'a#b',
  '\u0000',
  'a\nb',
  'a\r\nb',
  '\u0085',
  '',
  'x'.repeat(201),
];

/** A tiny node:http server on 127.0.0.1 standing in for the live service, with its base URL. */
export async function startLocalService(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The live service's answer to a route it does not have: an HTML 404 page. */
export function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'content-type': 'text/html' });
  res.end('<h1>Not Found</h1>');
}
