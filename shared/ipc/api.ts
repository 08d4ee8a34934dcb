import { CHANNELS, type Channel, type EventName } from './channels';
import type { ChannelInput, ChannelOutput, EventPayloads, IpcErrorBody, Result } from './contract';

type Namespace<C extends string> = C extends `${infer N}.${string}` ? N : never;
type Method<C extends string> = C extends `${string}.${infer M}` ? M : never;

/** `api.projects.list(q)` for every channel `projects.list`, derived from the catalog alone. */
export type NamespacedApi<R> = {
  [N in Namespace<Channel>]: {
    [C in Extract<Channel, `${N}.${string}`> as Method<C>]: (
      input?: ChannelInput<C>,
    ) => R extends 'result' ? Promise<Result<ChannelOutput<C>>> : Promise<ChannelOutput<C>>;
  };
};

export type Invoke = (channel: Channel, input: unknown) => Promise<Result<unknown>>;
export type Listener<E extends EventName> = (payload: EventPayloads[E]) => void;
export type Subscribe = <E extends EventName>(event: E, listener: Listener<E>) => () => void;

/** What the preload exposes (and the browser bridge imitates): envelopes, never throws. */
export type BridgeApi = NamespacedApi<'result'> & { on: Subscribe };

/** What stores use: values, and an `IpcError` thrown on `{ ok: false }`. */
export type ClientApi = NamespacedApi<'value'> & { on: Subscribe };

/** Builds the namespaced object from the channel list: every method is one allowlisted channel. */
export function buildNamespaced<T>(call: (channel: Channel, input: unknown) => Promise<unknown>): T {
  const api: Record<string, Record<string, (input?: unknown) => Promise<unknown>>> = {};
  for (const channel of CHANNELS) {
    const [ns, method] = channel.split('.') as [string, string];
    api[ns] ??= {};
    api[ns][method] = (input?: unknown) => call(channel, input);
  }
  return api as T;
}

/** The error a store catches: the service's code and statuses intact. */
export class IpcError extends Error {
  readonly type: string;
  readonly status: number;
  readonly bodyStatus: number | undefined;
  readonly issues: IpcErrorBody['issues'];

  constructor(body: IpcErrorBody) {
    super(body.message);
    this.name = 'IpcError';
    this.type = body.type;
    this.status = body.status;
    this.bodyStatus = body.bodyStatus;
    this.issues = body.issues;
  }
}

export function isIpcError(error: unknown): error is IpcError {
  return error instanceof IpcError;
}

/**
 * Decides after a failed call whether to send it once more: e.g. the session expired and the producer signed in
 * again. Resolves false to let the error through.
 */
export type Recover = (error: IpcErrorBody, channel: Channel) => Promise<boolean>;

/** Wraps an envelope-returning invoke into the throwing client the renderer uses. */
export function createClient(invoke: Invoke, subscribe: Subscribe, recover?: Recover): ClientApi {
  const api = buildNamespaced<NamespacedApi<'value'>>(async (channel, input) => {
    let result = await invoke(channel, input);
    // Once: a second failure is the caller's to show.
    if (!result.ok && recover && (await recover(result.error, channel)))
      result = await invoke(channel, input);
    if (!result.ok) throw new IpcError(result.error);
    return result.value;
  });
  return Object.assign(api, { on: subscribe });
}
