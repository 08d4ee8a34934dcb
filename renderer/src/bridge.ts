import { inject, type InjectionKey } from 'vue';
// Value imports come from the api module alone: the contract module carries zod, which the renderer never needs.
import { createClient } from '../../shared/ipc/api';
import { recoverExpiredSession } from './session';
import type {
  BridgeApi,
  Channel,
  ClientApi,
  EventName,
  EventPayloads,
  Invoke,
  Listener,
  Result,
  Subscribe,
} from '../../shared/ipc';

/** What the browser transport needs from its surroundings, so tests can hand in fakes. */
export interface BrowserTransportDeps {
  fetch: typeof fetch;
  /** This tab's launch secret (null when the tab was not opened from the printed URL). */
  session: () => string | null;
  /** Base of the host, '' for same origin. */
  base?: string;
  /** First wait before the event stream is opened again after it ends; doubles up to 10 s. */
  reconnectMs?: number;
}

/** The header browser mode's host expects the launch secret in (electron/main/app/hosts/browser-host.ts). */
export const SESSION_HEADER = 'x-takedesk-session';
/** Where the tab keeps the secret: sessionStorage is this tab's and this origin's (port included) alone. */
export const SESSION_KEY = 'takedesk.session';

/**
 * Browser mode's launch secret arrives once, in the URL fragment (`/open#s=<secret>`, optionally followed by the
 * app's own `#/route`), which no server ever receives. It moves to sessionStorage and out of the address bar (and
 * the history, `/open` becoming `/`) before the router reads the location; a reload of the tab finds it there.
 */
export function takeSessionSecret(
  win: Pick<Window, 'location' | 'history' | 'sessionStorage'>,
): string | null {
  const match = /^#s=([\w-]+)(#.*)?$/.exec(win.location?.hash ?? '');
  if (match) {
    const [, secret, route] = match as unknown as [string, string, string | undefined];
    try {
      win.sessionStorage.setItem(SESSION_KEY, secret);
    } catch {
      // storage refused (a locked-down profile): the secret still serves this page until it is reloaded
    }
    const path = win.location.pathname.replace(/\/open$/, '/');
    win.history.replaceState(win.history.state, '', `${path}${win.location.search}${route ?? ''}`);
    return secret;
  }
  try {
    return win.sessionStorage?.getItem(SESSION_KEY) ?? null;
  } catch {
    return null;
  }
}

/** Electron: every channel is one preload method returning an envelope. */
export function createElectronTransport(bridge: BridgeApi): { invoke: Invoke; subscribe: Subscribe } {
  const table = bridge as unknown as Record<
    string,
    Record<string, (input: unknown) => Promise<Result<unknown>>>
  >;
  const invoke: Invoke = (channel, input) => {
    const [ns, method] = channel.split('.') as [string, string];
    const fn = table[ns]?.[method];
    if (!fn) return Promise.resolve(clientError('INTERNAL', `No bridge method for ${channel}`));
    return fn(input);
  };
  return { invoke, subscribe: bridge.on };
}

/**
 * Browser mode: `POST /ipc/<channel>` answers an envelope; `/events` streams `{event, payload}` messages as SSE.
 * Both carry the launch secret in a header, so the stream is read with fetch (EventSource cannot send headers).
 */
export function createBrowserTransport(deps: BrowserTransportDeps): {
  invoke: Invoke;
  subscribe: Subscribe;
  close: () => void;
} {
  const base = deps.base ?? '';
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  let stream: AbortController | null = null;
  const headers = (extra: Record<string, string> = {}) => {
    const secret = deps.session();
    return secret ? { ...extra, [SESSION_HEADER]: secret } : extra;
  };

  const invoke: Invoke = async (channel: Channel, input: unknown) => {
    let response: Response;
    try {
      response = await deps.fetch(`${base}/ipc/${channel}`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: headers({ 'content-type': 'application/json' }),
        // No input is sent as no `input` key: `null` would fail the optional input schemas (e.g. catalog.tracks).
        body: JSON.stringify(input === undefined ? {} : { input }),
      });
    } catch (error) {
      return clientError(
        'NETWORK_UNREACHABLE',
        `Takedesk's host did not answer: ${(error as Error).message}`,
      );
    }
    try {
      const body = (await response.json()) as Result<unknown>;
      if (body && typeof body === 'object' && 'ok' in body) return body;
    } catch {
      // fall through: a non-envelope answer is a host fault, reported below
    }
    return clientError('UNEXPECTED_RESPONSE', `The host answered ${response.status} without a result`);
  };

  const dispatch = (data: string) => {
    let message: { event?: EventName; payload?: unknown };
    try {
      message = JSON.parse(data) as typeof message;
    } catch {
      return;
    }
    if (!message.event) return;
    for (const listener of listeners.get(message.event) ?? []) listener(message.payload);
  };

  /** Reads one SSE response to its end: each block's `data:` lines are one message; named events (pings) skip. */
  async function read(body: ReadableStream<Uint8Array>, signal: AbortSignal): Promise<void> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      while (!signal.aborted) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const lines = buffer.slice(0, end).split('\n');
          buffer = buffer.slice(end + 2);
          if (lines.some((line) => line.startsWith('event:') && line.slice(6).trim() !== 'message')) continue;
          const data = lines.filter((line) => line.startsWith('data:'));
          if (data.length) dispatch(data.map((line) => line.slice(5).replace(/^ /, '')).join('\n'));
        }
      }
    } finally {
      void reader.cancel().catch(() => undefined);
    }
  }

  /** Keeps the stream open, as EventSource would: opened again after it ends or fails, with a growing wait. */
  async function follow(signal: AbortSignal): Promise<void> {
    const first = deps.reconnectMs ?? 1_000;
    let wait = first;
    while (!signal.aborted) {
      try {
        const response = await deps.fetch(`${base}/events`, {
          credentials: 'same-origin',
          cache: 'no-store',
          headers: headers({ accept: 'text/event-stream' }),
          signal,
        });
        if (response.ok && response.body) {
          wait = first;
          await read(response.body, signal);
        } else {
          void response.body?.cancel().catch(() => undefined);
        }
      } catch {
        // the host went away or the stream broke: opened again below
      }
      if (signal.aborted) return;
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, 10_000);
    }
  }

  function ensureStream(): void {
    if (stream) return;
    stream = new AbortController();
    void follow(stream.signal);
  }

  const subscribe: Subscribe = <E extends EventName>(event: E, listener: Listener<E>) => {
    ensureStream();
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    const wrapped = listener as (payload: unknown) => void;
    set.add(wrapped);
    return () => {
      set.delete(wrapped);
    };
  };

  return {
    invoke,
    subscribe,
    close: () => {
      stream?.abort();
      stream = null;
    },
  };
}

function clientError(type: string, message: string): Result<never> {
  return { ok: false, error: { type, status: 0, message } };
}

/** Picks the transport the page runs under. */
export function createApi(win: Window): ClientApi {
  if (win.takedesk) {
    const t = createElectronTransport(win.takedesk);
    return createClient(t.invoke, t.subscribe, recoverExpiredSession);
  }
  const secret = takeSessionSecret(win);
  const t = createBrowserTransport({ fetch: win.fetch.bind(win), session: () => secret });
  return createClient(t.invoke, t.subscribe, recoverExpiredSession);
}

/** The renderer's one way to main. Components reach it through stores only. */
export const api: ClientApi = createApi(window);

/** Stores ask for the client by injection so tests can provide a fake bridge. */
export const API_KEY: InjectionKey<ClientApi> = Symbol('takedesk-api');

/** The client for the running app (call inside a store's setup or a component's setup). */
export function useApi(): ClientApi {
  const provided = inject(API_KEY, null);
  if (!provided) throw new Error('useApi: no client provided (app.provide(API_KEY, api))');
  return provided;
}

/** True under Electron (the preload's bridge exists); false in browser mode (the HTTP transport). */
export function isDesktopShell(): boolean {
  return Boolean(window.takedesk);
}

/** macOS takes ⌘ where other systems take Ctrl (Electron's CmdOrCtrl). */
export function isMacPlatform(): boolean {
  return /Mac|iPhone|iPad/i.test(navigator.platform || navigator.userAgent);
}

/** The CSP nonce the host put in index.html (wavesurfer.js needs it for its style tag). */
export function cspNonce(): string | undefined {
  return document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content || undefined;
}

export type { EventPayloads };
