import { Worker } from 'node:worker_threads';

/** The sha256 of a download, fed chunk by chunk. */
export interface ChunkHash {
  update(chunk: Uint8Array): void;
  digest(): Promise<string>;
  /** Abandons the hash (a restart from zero, a failed write). */
  dispose(): void;
}

/** One hashing thread shared by every download of a manager. */
export interface HashThread {
  create(): ChunkHash;
  close(): Promise<void>;
}

// CommonJS, evaluated in the worker: no file to locate in the bundle or under tsx.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const hashes = new Map();
parentPort.on('message', ([id, op, chunk]) => {
  if (op === 'update') {
    let hash = hashes.get(id);
    if (!hash) hashes.set(id, (hash = createHash('sha256')));
    hash.update(chunk);
  } else if (op === 'digest') {
    const hash = hashes.get(id) ?? createHash('sha256');
    hashes.delete(id);
    parentPort.postMessage([id, hash.digest('hex')]);
  } else hashes.delete(id);
});
`;

/**
 * sha256 on a worker thread: hashing 170 MB costs ~250 ms of CPU, which would otherwise sit on main's event loop
 * between socket reads and file writes (and, in Electron, hold up every IPC answer meanwhile). The thread starts
 * on first use and is shared, so a small file pays no start-up. Chunks are copied before they are posted,
 * because the transfer recycles its buffers once they are written.
 */
export function createHashThread(): HashThread {
  let worker: Worker | null = null;
  let nextId = 1;
  const waiting = new Map<number, { resolve(hex: string): void; reject(error: Error): void }>();

  const thread = (): Worker => {
    if (worker) return worker;
    const started = new Worker(WORKER_SOURCE, { eval: true });
    started.unref();
    started.on('message', ([id, hex]: [number, string]) => {
      waiting.get(id)?.resolve(hex);
      waiting.delete(id);
    });
    started.on('error', (error) => {
      for (const pending of waiting.values()) pending.reject(error);
      waiting.clear();
      worker = null;
    });
    worker = started;
    return started;
  };

  return {
    create() {
      const id = nextId++;
      return {
        update(chunk) {
          const copy = new Uint8Array(chunk.byteLength);
          copy.set(chunk);
          thread().postMessage([id, 'update', copy], [copy.buffer]);
        },
        digest() {
          return new Promise<string>((resolve, reject) => {
            waiting.set(id, { resolve, reject });
            thread().postMessage([id, 'digest']);
          });
        },
        dispose() {
          if (!waiting.has(id)) worker?.postMessage([id, 'drop']);
        },
      };
    },
    async close() {
      const closing = worker;
      worker = null;
      if (closing) await closing.terminate();
    },
  };
}
