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
  createEventSource: (url: string) => EventSource;
  /** Base of the host, '' for same origin. */
  base?: string;
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

/** Browser mode: `POST /ipc/<channel>` answers an envelope; `/events` streams `{event, payload}` messages. */
export function createBrowserTransport(deps: BrowserTransportDeps): {
  invoke: Invoke;
  subscribe: Subscribe;
  close: () => void;
} {
  const base = deps.base ?? '';
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  let source: EventSource | null = null;

  const invoke: Invoke = async (channel: Channel, input: unknown) => {
    let response: Response;
    try {
      response = await deps.fetch(`${base}/ipc/${channel}`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
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

  function ensureSource(): void {
    if (source) return;
    source = deps.createEventSource(`${base}/events`);
    source.onmessage = (message: MessageEvent<string>) => {
      let data: { event?: EventName; payload?: unknown };
      try {
        data = JSON.parse(message.data) as typeof data;
      } catch {
        return;
      }
      if (!data.event) return;
      for (const listener of listeners.get(data.event) ?? []) listener(data.payload);
    };
  }

  const subscribe: Subscribe = <E extends EventName>(event: E, listener: Listener<E>) => {
    ensureSource();
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
      source?.close();
      source = null;
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
  const t = createBrowserTransport({
    fetch: win.fetch.bind(win),
    createEventSource: (url) => new EventSource(url, { withCredentials: true }),
  });
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
