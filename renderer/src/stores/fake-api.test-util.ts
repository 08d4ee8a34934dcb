import { createApp } from 'vue';
import { createPinia, setActivePinia } from 'pinia';
import {
  createClient,
  type Channel,
  type ClientApi,
  type EventName,
  type EventPayloads,
  type IpcErrorBody,
  type Result,
} from '../../../shared/ipc';
import { API_KEY } from '../bridge';

type Handler = (input: unknown) => unknown;

/** A bridge fake for store tests: channel handlers return values or throw `{ error }` bodies; events are emitted by hand. */
export function createFakeApi(handlers: Partial<Record<Channel, Handler>>) {
  const calls: Array<{ channel: Channel; input: unknown }> = [];
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const api: ClientApi = createClient(
    async (channel, input): Promise<Result<unknown>> => {
      calls.push({ channel, input });
      const handler = handlers[channel];
      if (!handler) return { ok: false, error: { type: 'NOT_FAKED', status: 0, message: channel } };
      try {
        return { ok: true, value: await handler(input) };
      } catch (e) {
        if (e && typeof e === 'object' && 'type' in e) return { ok: false, error: e as IpcErrorBody };
        throw e;
      }
    },
    (event, listener) => {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const wrapped = listener as (payload: unknown) => void;
      set.add(wrapped);
      return () => set.delete(wrapped);
    },
  );
  function emit<E extends EventName>(event: E, payload: EventPayloads[E]): void {
    for (const fn of listeners.get(event) ?? []) fn(payload);
  }
  const listenerCount = () => [...listeners.values()].reduce((n, s) => n + s.size, 0);
  return { api, calls, emit, listenerCount };
}

/** Runs `use` inside an app that provides the fake api and a fresh pinia (what main.ts does for real). */
export function withApi<T>(api: ClientApi, use: () => T): T {
  const app = createApp({ render: () => null });
  const pinia = createPinia();
  app.provide(API_KEY, api);
  app.use(pinia);
  setActivePinia(pinia);
  return app.runWithContext(use);
}

/** An IpcErrorBody the fake throws. */
export function serviceError(type: string, message = type, status = 400): IpcErrorBody {
  return { type, status, message };
}
