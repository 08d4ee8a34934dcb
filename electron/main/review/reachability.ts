/**
 * Where the service's answers tell the outbox the service is reachable again: real calls notice it, with no extra
 * polling. Here because the outbox is what waits for it (and names its items from the same answers).
 */
import type { Handlers } from '../kernel/handler-types';
import type { Names } from './names';

/** Channels whose answer comes from the service: an answer means it is reachable again. */
const SERVICE_CALL = /^(catalog|projects|deliverables|revisions|samples)\./u;

/**
 * Wraps the handlers so that any answer from the service tells the outbox it can send (real calls notice
 * reachability; no extra polling), and remembers names for the outbox's items.
 */
export function reachabilityFrom(names: Names, reachable: () => void, handlers: Handlers): Handlers {
  const wrapped: Record<string, unknown> = {};
  for (const [channel, handler] of Object.entries(handlers) as Array<
    [string, (...a: unknown[]) => unknown]
  >) {
    wrapped[channel] = !SERVICE_CALL.test(channel)
      ? handler
      : async (...args: unknown[]) => {
          const value = await handler(...args);
          names.seen(value);
          // An answer from the read mirror (`asOf`) is what was loaded before, not the service answering.
          if (!(value && typeof value === 'object' && 'asOf' in value)) reachable();
          return value;
        };
  }
  return wrapped as Handlers;
}
