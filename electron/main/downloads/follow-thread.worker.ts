// Worker-thread entry: one download's PartReader at a time (checksum + streaming analysis) off the main thread;
// the worker is reused for the next download. Bundled as out/main/follow-thread.worker.js.
import { parentPort, type MessagePort } from 'node:worker_threads';
import {
  createPartReader,
  type FollowedEnvelope,
  type FollowResult,
  type PartReader,
  type PartReaderOptions,
} from './part-reader';

/**
 * A fed chunk: `length` bytes of the file from `at`, at the start of a shared read slot (by number; the slot's
 * memory comes along the first time the worker sees it).
 */
export interface FedChunk {
  slot: number;
  at: number;
  length: number;
  memory?: SharedArrayBuffer;
}

/** Messages to the worker; `session` tells one download's messages from the previous one's. */
export type FollowRequest =
  | ({ type: 'init'; session: number } & PartReaderOptions)
  | { type: 'advance'; session: number; bytes: number }
  | {
      type: 'feed';
      session: number;
      chunks: FedChunk[];
      /** The latest 'advance' known to the sender, carried here instead of a message of its own. */
      advance: number;
    }
  /** A line on which the transfer worker feeds this session directly (LineFeed in, 'slots' replies back). */
  | { type: 'line'; session: number; port: MessagePort }
  | { type: 'finish'; session: number; size: number }
  /** The waveform so far, from bucket `from` on (answered by an 'envelope' reply with the same `ask`). */
  | { type: 'envelope'; session: number; ask: number; from: number }
  | { type: 'close'; session: number };

/** What the transfer worker sends over a session's line: written slots, and how far the file is written. */
export interface LineFeed {
  chunks: FedChunk[];
  advance: number;
}

/** The worker's one answer to 'finish'; and the shared read slots it is done with, for the next reads. */
export type FollowReply =
  | { session: number; ok: true; result: FollowResult }
  | { session: number; ok: false; message: string }
  | { type: 'slots'; slots: number[] }
  | { type: 'envelope'; session: number; ask: number; envelope: FollowedEnvelope | null };

const port = parentPort;
if (port) {
  let reader: PartReader | null = null;
  let current = -1;
  // The session's direct lines from the transfer worker (feeds in, slots back), one per attempt; the latest takes
  // the slots back. All stay open until the session ends: closing one frees, on the other side, what it brought.
  let lines: MessagePort[] = [];
  // The shared read slots' memory, kept for the worker's life (by number, and the number of each).
  const memory: SharedArrayBuffer[] = [];
  const slotOf = new Map<ArrayBufferLike, number>();
  // Slots that came over the line go back over it; the others through the parent.
  const overLine = new Set<number>();
  // Slots given back in one message per turn of the event loop, not one each.
  let returning: number[] = [];
  const flushReturns = () => {
    const slots = returning;
    returning = [];
    const back: number[] = [];
    const parent: number[] = [];
    for (const slot of slots) (overLine.delete(slot) ? back : parent).push(slot);
    if (back.length > 0) lines.at(-1)?.postMessage({ type: 'slots', slots: back } satisfies FollowReply);
    if (parent.length > 0) port.postMessage({ type: 'slots', slots: parent } satisfies FollowReply);
  };
  const giveBack = (slot: number) => {
    if (returning.length === 0) setImmediate(flushReturns);
    returning.push(slot);
  };
  const bytesOf = (chunk: FedChunk): Buffer => {
    if (chunk.memory) {
      memory[chunk.slot] = chunk.memory;
      slotOf.set(chunk.memory, chunk.slot);
    }
    return Buffer.from(memory[chunk.slot]!, 0, chunk.length);
  };
  const feed = (message: { chunks: FedChunk[]; advance: number }) => {
    if (!reader) return;
    for (const chunk of message.chunks) reader.feed([bytesOf(chunk)], chunk.at);
    reader.advance(message.advance);
  };
  /** Ends the session's reader; what it held goes back, and closing the line gives the sender the rest. */
  const endSession = () => {
    reader?.close();
    reader = null;
    flushReturns();
    for (const line of lines) line.close();
    lines = [];
    overLine.clear();
  };
  port.on('message', (message: FollowRequest) => {
    const { session } = message;
    if (message.type === 'init') {
      endSession();
      current = session;
      const { type: _type, session: _session, ...options } = message;
      reader = createPartReader({
        ...options,
        // Slots go back for the transport's next reads.
        onDone: (buffer) => {
          const slot = slotOf.get(buffer);
          if (slot !== undefined) giveBack(slot);
        },
      });
      return;
    }
    if (session !== current || !reader) {
      if (message.type === 'line') message.port.close(); // a late line of a closed session
      return;
    }
    if (message.type === 'advance') reader.advance(message.bytes);
    else if (message.type === 'feed') feed(message);
    else if (message.type === 'line') {
      lines.push(message.port);
      message.port.on('message', (fed: LineFeed) => {
        for (const chunk of fed.chunks) overLine.add(chunk.slot);
        feed(fed);
      });
    } else if (message.type === 'close') endSession();
    else if (message.type === 'envelope') {
      const { ask } = message;
      void (reader.envelope?.(message.from) ?? Promise.resolve(null)).then(
        (envelope) =>
          // The buckets move (no copy): this thread made them for this answer.
          port.postMessage(
            { type: 'envelope', session, ask, envelope } satisfies FollowReply,
            envelope ? [envelope.minMax.buffer as ArrayBuffer] : [],
          ),
        () => port.postMessage({ type: 'envelope', session, ask, envelope: null } satisfies FollowReply),
      );
    } else
      reader.finish(message.size).then(
        (result) => port.postMessage({ session, ok: true, result } satisfies FollowReply),
        (error: unknown) =>
          port.postMessage({
            session,
            ok: false,
            message: String((error as Error)?.message ?? error),
          } satisfies FollowReply),
      );
  });
}
