/**
 * The handler map's types: one handler per IPC channel, typed from the contract in shared/ipc. Every feature exports
 * its part of the map (`HandlersIn<'review' | ...>`) and app/ merges the parts `satisfies Handlers`, so a channel
 * without a handler is a compile error. The router (app/ipc/router.ts) runs them.
 */
import type { Channel, ChannelOutput, ParsedInput } from '../../../shared/ipc';

/** Who is calling: handlers may differ only in what the transport can do (reveal in folder, drag out). */
export interface HandlerContext {
  transport: 'electron' | 'browser';
  /** The calling page's web contents (Electron only), opaque here: the desktop edge starts drag-out on it. */
  sender?: unknown;
}

export type Handler<C extends Channel> = (
  input: ParsedInput<C>,
  ctx: HandlerContext,
) => Promise<ChannelOutput<C>> | ChannelOutput<C>;

export type Handlers = { [C in Channel]: Handler<C> };

/** A feature's part of the map: the handlers of the channels named `<namespace>.*`. */
export type HandlersIn<NS extends string> = Pick<Handlers, Extract<Channel, `${NS}.${string}`>>;
