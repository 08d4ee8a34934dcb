import { buildNamespaced, type BridgeApi, type Listener } from '../../shared/ipc/api';
import { IPC_EVENT, IPC_INVOKE, isEventName, type EventName } from '../../shared/ipc/channels';

/** The slice of ipcRenderer the preload uses: it is never handed to the page. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

/**
 * The API the page gets: one method per allowlisted channel (`api.projects.list(q)`) and `on(event)` returning
 * an unsubscribe function. Built from the catalog, so nothing else is reachable.
 */
export function createBridgeApi(ipc: IpcRendererLike): BridgeApi {
  const api = buildNamespaced<Omit<BridgeApi, 'on'>>((channel, input) =>
    ipc.invoke(IPC_INVOKE, channel, input),
  );
  const on = <E extends EventName>(event: E, listener: Listener<E>) => {
    if (!isEventName(event)) throw new Error(`Unknown event: ${String(event)}`);
    if (typeof listener !== 'function') throw new Error('Listener must be a function');
    const handler = (_event: unknown, name: unknown, payload: unknown) => {
      if (name === event) listener(payload as Parameters<Listener<E>>[0]);
    };
    ipc.on(IPC_EVENT, handler as (event: unknown, ...args: unknown[]) => void);
    return () => void ipc.removeListener(IPC_EVENT, handler as (event: unknown, ...args: unknown[]) => void);
  };
  return Object.freeze(Object.assign(api, { on })) as BridgeApi;
}
