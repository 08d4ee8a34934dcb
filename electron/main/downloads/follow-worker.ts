// Worker-thread entry: one download's PartReader at a time (checksum + streaming analysis) off the main thread;
// the worker is reused for the next download. Bundled as out/main/follow-worker.js.
import { parentPort } from 'node:worker_threads';
import { createPartReader, type FollowResult, type PartReader, type PartReaderOptions } from './part-reader';

/** Messages to the worker; `session` tells one download's messages from the previous one's. */
export type FollowRequest =
  | ({ type: 'init'; session: number } & PartReaderOptions)
  | { type: 'advance'; session: number; bytes: number }
  | {
      type: 'feed';
      session: number;
      start: number;
      chunks: Array<{ buffer: ArrayBuffer; length: number }>;
      /** The latest 'advance' known to the sender, carried here instead of a message of its own. */
      advance: number;
    }
  | { type: 'finish'; session: number; size: number }
  | { type: 'close'; session: number };

/** The worker's one answer to 'finish'; and read buffers it is done with, given back for the next reads. */
export type FollowReply =
  | { session: number; ok: true; result: FollowResult }
  | { session: number; ok: false; message: string }
  | { type: 'buffers'; buffers: ArrayBuffer[] };

const port = parentPort;
if (port) {
  let reader: PartReader | null = null;
  let current = -1;
  // Buffers given back in one message per turn of the event loop, not one each.
  let returning: ArrayBuffer[] = [];
  const giveBack = (buffer: ArrayBuffer) => {
    if (returning.length === 0)
      setImmediate(() => {
        const buffers = returning;
        returning = [];
        port.postMessage({ type: 'buffers', buffers } satisfies FollowReply, buffers);
      });
    returning.push(buffer);
  };
  port.on('message', (message: FollowRequest) => {
    const { session } = message;
    if (message.type === 'init') {
      reader?.close();
      current = session;
      const { type: _type, session: _session, ...options } = message;
      reader = createPartReader({
        ...options,
        // Memory the writer moved here goes back for its next reads (the copies of small reads are dropped).
        onDone: (buffer) => {
          if (buffer.byteLength === 1 << 20) giveBack(buffer);
        },
      });
      return;
    }
    if (session !== current || !reader) return; // a late message of a closed session
    if (message.type === 'advance') reader.advance(message.bytes);
    else if (message.type === 'feed') {
      reader.feed(
        message.chunks.map((c) => Buffer.from(c.buffer, 0, c.length)),
        message.start,
      );
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
