// Worker-thread entry: one download's PartReader at a time (checksum + streaming analysis) off the main thread;
// the worker is reused for the next download. Bundled as out/main/follow-worker.js.
import { parentPort } from 'node:worker_threads';
import { createPartReader, type FollowResult, type PartReader, type PartReaderOptions } from './part-reader';

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
  | { type: 'finish'; session: number; size: number }
  | { type: 'close'; session: number };

/** The worker's one answer to 'finish'; and the shared read slots it is done with, for the next reads. */
export type FollowReply =
  | { session: number; ok: true; result: FollowResult }
  | { session: number; ok: false; message: string }
  | { type: 'slots'; slots: number[] };

const port = parentPort;
if (port) {
  let reader: PartReader | null = null;
  let current = -1;
  // The shared read slots' memory, kept for the worker's life (by number, and the number of each).
  const memory: SharedArrayBuffer[] = [];
  const slotOf = new Map<ArrayBufferLike, number>();
  // Slots given back in one message per turn of the event loop, not one each.
  let returning: number[] = [];
  const giveBack = (slot: number) => {
    if (returning.length === 0)
      setImmediate(() => {
        const slots = returning;
        returning = [];
        port.postMessage({ type: 'slots', slots } satisfies FollowReply);
      });
    returning.push(slot);
  };
  const bytesOf = (chunk: FedChunk): Buffer => {
    if (chunk.memory) {
      memory[chunk.slot] = chunk.memory;
      slotOf.set(chunk.memory, chunk.slot);
    }
    return Buffer.from(memory[chunk.slot]!, 0, chunk.length);
  };
  port.on('message', (message: FollowRequest) => {
    const { session } = message;
    if (message.type === 'init') {
      reader?.close();
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
    if (session !== current || !reader) return; // a late message of a closed session
    if (message.type === 'advance') reader.advance(message.bytes);
    else if (message.type === 'feed') {
      for (const chunk of message.chunks) reader.feed([bytesOf(chunk)], chunk.at);
      reader.advance(message.advance);
    } else if (message.type === 'close') {
      reader.close();
      reader = null;
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
