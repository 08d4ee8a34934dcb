import { mkdir } from 'node:fs/promises';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { createApp, type SandboxServices } from './app';
import { createProCatalogue } from './data/pros';
import { createEngine, type SandboxCatalog } from './engine';
import { createFaults } from './faults';
import { createLiveShaper, LIVE_PAGE_SIZE_CAP, seedRevisedAfterApproval } from './live-shapes';
import { buildOpenApi } from './openapi';
import { createFilePersistence, createMemoryPersistence } from './persistence';
import { createSandboxCatalog, createSandboxServices } from './services';
import { resetState, SANDBOX_USERS, type SandboxState } from './state';
import { generateSandboxTls, persistedSandboxTls } from './tls';

/** Options of an embedded sandbox. */
export interface SandboxOptions {
  /** Persist state (and media) here; without it state lives in memory and tokens are new each start. */
  dataDir?: string;
  /** Where generated media is cached; default `<dataDir>/media`, or a shared temp folder. */
  mediaDir?: string;
  /** 'manual': work arrives only via deliverNow / POST /_sandbox/deliver; a number: delay in ms. Default 4000. */
  delivery?: 'manual' | number;
  /** Only loopback is served. */
  host?: '127.0.0.1';
  /** 0 (default) picks a free port. */
  port?: number;
  /**
   * Serve HTTPS with a self-signed certificate made at start (kept in `dataDir` and reused while valid), which
   * only clients given `Sandbox.certificate` trust. Default: plain HTTP.
   */
  https?: boolean;
  /** Clock, for tests. */
  now?: () => Date;
  /** Reference data and media (tests may inject); default built from electron/sandbox/data and media. */
  services?: SandboxServices;
  /** Seed data and pricing (tests may inject); default built from electron/sandbox/data. */
  catalog?: SandboxCatalog;
  /** Tokens issued by `POST /users/auth` expire after this many ms (the live ones do); default: never. */
  tokenLifetimeMs?: number;
  /** Answer in the live service's shapes where the spec is silent (README "Live shapes"). Default false. */
  liveShapes?: boolean;
  /** Share of delivered takes mastered out of spec (default 0.1, seeded per take); 0 makes every take pass QA. */
  outOfSpecRate?: number;
}

/** A running sandbox. */
export interface Sandbox {
  /** Base URL, e.g. http://127.0.0.1:53124 or https://127.0.0.1:53124 (no trailing slash). */
  url: string;
  /** In HTTPS mode, the server's certificate (PEM): the one certificate authority a client should trust for it. */
  certificate?: string;
  /** `full`: user 1, all scopes; `noScopes`: user 1 without search/versions; `otherUser`: user 2, all scopes. */
  tokens: { full: string; noScopes: string; otherUser: string };
  /** Stops the timer and the server and waits for the last state write. */
  close(): Promise<void>;
  /** Delivers all owed work now (of one project, or all); resolves with the number of work items delivered. */
  deliverNow(projectId?: string): Promise<number>;
}

/** Default delay before simulated work arrives on its own. */
export const DEFAULT_DELIVERY_MS = 4000;
const STATE_FILE = 'sandbox-state.json';

/** Starts the sandbox service on 127.0.0.1 (the whole spec over real HTTP, with simulated creatives). */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const now = options.now ?? (() => new Date());
  const delivery = options.delivery ?? DEFAULT_DELIVERY_MS;
  if (delivery !== 'manual' && (!Number.isFinite(delivery) || delivery < 0)) {
    throw new RangeError('delivery must be "manual" or a delay in ms >= 0');
  }
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  const persistence = options.dataDir
    ? createFilePersistence(join(options.dataDir, STATE_FILE))
    : createMemoryPersistence();
  const state: SandboxState = await persistence.load();
  const commit = () => persistence.commit(state);
  await commit(); // so the tokens of a new data dir are stable from the first start

  const mediaDir =
    options.mediaDir ??
    (options.dataDir ? join(options.dataDir, 'media') : join(tmpdir(), 'takedesk-sandbox-media'));
  const pros = options.services && options.catalog ? [] : createProCatalogue();
  const services = options.services ?? (await createSandboxServices({ mediaDir, pros }));
  const catalog = options.catalog ?? createSandboxCatalog({ now, pros });
  const engine = createEngine({
    state: () => state,
    catalog,
    now,
    delivery,
    ...(options.liveShapes
      ? { liveShapes: { mediaKey: services.media.key, pageSizeCap: LIVE_PAGE_SIZE_CAP } }
      : {}),
    ...(options.outOfSpecRate !== undefined ? { outOfSpecRate: options.outOfSpecRate } : {}),
  });
  const shape = options.liveShapes ? createLiveShaper({ state: () => state, now }) : undefined;
  // A fresh live-shaped sandbox starts with a completed project revised after approval (README "Live shapes").
  if (options.liveShapes && Object.keys(state.projects).length === 0) {
    seedRevisedAfterApproval(engine, SANDBOX_USERS[0].id, services.media.key);
    await commit();
  }
  const faults = createFaults();
  let url = '';

  const deliverNow = async (projectId?: string) => {
    const delivered = engine.deliver({ all: true, projectId }, services.media.key);
    await commit();
    return delivered;
  };
  let openapi: unknown;
  const app = createApp({
    engine,
    state: () => state,
    commit,
    faults,
    services,
    baseUrl: () => url,
    deliverNow,
    reset: async () => {
      resetState(state);
    },
    openapi: () => (openapi ??= buildOpenApi(url)),
    now: () => now().getTime(),
    ...(options.tokenLifetimeMs !== undefined ? { tokenLifetimeMs: options.tokenLifetimeMs } : {}),
    ...(shape ? { shape } : {}),
  });

  const tls = options.https
    ? options.dataDir
      ? await persistedSandboxTls(options.dataDir, now())
      : await generateSandboxTls(now())
    : null;
  const listen = { fetch: app.fetch, port: options.port ?? 0, hostname: '127.0.0.1' };
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = tls
      ? serve({ ...listen, createServer: createHttpsServer, serverOptions: tls }, () => resolve(s))
      : serve(listen, () => resolve(s));
    s.once('error', reject);
  });
  url = `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;

  let timer: NodeJS.Timeout | undefined;
  if (delivery !== 'manual') {
    const period = Math.max(20, Math.min(500, Math.floor(delivery / 4)));
    let busy = false;
    timer = setInterval(() => {
      if (busy || engine.nextDue() === null || engine.nextDue()! > now().getTime()) return;
      busy = true;
      try {
        engine.deliver({ all: false }, services.media.key); // a failing work item is marked failed, not thrown
      } catch (error) {
        console.error('[sandbox] delivery failed', error);
      }
      commit()
        .catch((error: unknown) => console.error('[sandbox] state write failed', error))
        .finally(() => (busy = false));
    }, period);
    timer.unref();
  }

  let closing: Promise<void> | undefined;
  return {
    url,
    ...(tls ? { certificate: tls.cert } : {}),
    tokens: { ...state.tokens },
    deliverNow,
    close() {
      closing ??= (async () => {
        if (timer) clearInterval(timer);
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          if ('closeAllConnections' in server) server.closeAllConnections();
        });
        await persistence.flush();
      })();
      return closing;
    },
  };
}
