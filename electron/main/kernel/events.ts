import type { EventName, EventPayloads } from '../../../shared/ipc';

export type EventSink = (event: EventName, payload: EventPayloads[EventName]) => void;

/** Fan-out of main's events to whichever transports are attached (Electron windows, browser-mode SSE). */
export interface EventBus {
  emit<E extends EventName>(event: E, payload: EventPayloads[E]): void;
  attach(sink: EventSink): () => void;
}

export function createEventBus(): EventBus {
  const sinks = new Set<EventSink>();
  return {
    emit(event, payload) {
      for (const sink of sinks) {
        try {
          sink(event, payload);
        } catch {
          // A closed window or dropped SSE connection must not stop the others.
        }
      }
    },
    attach(sink) {
      sinks.add(sink);
      return () => sinks.delete(sink);
    },
  };
}
