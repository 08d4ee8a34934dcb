import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolveBundledFile } from '../../kernel/workers';
import { AudioDecodeError } from '../errors';

// Status codes of libmpg123 (mpg123.h, enum mpg123_errors) that td_read() returns.
const OK = 0;
const NEW_FORMAT = -11;
const NEED_MORE = -10;
const DONE = -12;

/** What one td_read() call yielded. */
export type ReadStatus = 'ok' | 'new-format' | 'need-more' | 'done';

/** How a decoder opens: `mix` decodes the channel mix (L+R)/2 as one channel (what waveform peaks need; glue.c). */
export interface OpenOptions {
  mix?: boolean;
}

/** One libmpg123 decoder in its own WebAssembly instance (see glue.c). */
export interface Mpg123 {
  /** Starts decoding bytes that arrive in order (feed()); `mix`: one channel, (L+R)/2, at about half the cost. */
  openFeed(options?: OpenOptions): void;
  /** Queues bytes in feed mode; call read() until it says 'need-more'. */
  feed(bytes: Uint8Array): void;
  /** Starts decoding a whole file image, which makes length() and seek() exact. */
  openMemory(file: Uint8Array, options?: OpenOptions): void;
  /**
   * Room for a file image of `size` bytes in the decoder's own memory, for the caller to fill (e.g. read a file
   * straight into: no copy in JavaScript) before openImage(). The view is valid until the next call.
   */
  imageBuffer(size: number): Uint8Array;
  /** openMemory on the image imageBuffer() gave, as the caller filled it. */
  openImage(options?: OpenOptions): void;
  /** Samples per channel after the gapless trim (memory mode; scans the frame headers once). */
  length(): number;
  /** Continues decoding at sample `offset` per channel; returns the offset decoding resumes at. */
  seek(offset: number): number;
  /** Decodes the next block; frames() and planar() describe it. Throws AudioDecodeError on a decoder error. */
  read(): ReadStatus;
  /** Frames of the last block. */
  frames(): number;
  /** The last block, one view per channel into the decoder's memory: valid until the next call. */
  planar(): Float32Array[];
  /**
   * Least and greatest sample of frames `from` to `to` (exclusive, from < to) of the last block, into out[0] and
   * out[1]; mono blocks only (what the mix for peaks is). In WebAssembly SIMD, same values as a scan in JavaScript.
   */
  minMax(from: number, to: number, out: { 0: number; 1: number }): void;
  readonly sampleRate: number;
  readonly channels: number;
}

interface Exports {
  memory: { buffer: ArrayBuffer };
  _initialize(): void;
  td_alloc(bytes: number): number;
  td_free(pointer: number): void;
  td_mix(on: number): void;
  td_open_feed(): number;
  td_feed(pointer: number, bytes: number): number;
  td_open_memory(pointer: number, bytes: number): number;
  td_scan(): number;
  td_length(): number;
  td_seek(offset: number): number;
  td_read(): number;
  td_frames(): number;
  td_left(): number;
  td_right(): number;
  td_rate(): number;
  td_channels(): number;
  td_error(): number;
  td_minmax(from: number, to: number): void;
  td_range(): number;
}

// The node project's TypeScript libraries do not declare WebAssembly; this is the part used here.
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

// mpg123 only reaches WASI for stdio, which MPG123_QUIET keeps silent: every call answers EBADF.
const EBADF = 8;
const wasi = { fd_close: () => EBADF, fd_read: () => EBADF, fd_seek: () => EBADF, fd_write: () => EBADF };

/** mpg123.wasm: beside this file from source, in out/main once bundled (Electron reads it inside app.asar). */
function wasmBytes(): Uint8Array {
  const url = resolveBundledFile({ source: './mpg123.wasm', bundled: 'mpg123.wasm' }, import.meta.url);
  if (!url)
    throw new AudioDecodeError('unsupported', 'The MP3 decoder (mpg123.wasm) is missing from this build.');
  return readFileSync(fileURLToPath(url));
}

// Compiled once per thread, instantiated per decoder (each decoder has its own memory).
let compiled: object | null = null;

/** Creates a decoder instance. Synchronous: the module is small enough to compile on first use. */
export function createMpg123(): Mpg123 {
  compiled ??= new wasm.Module(wasmBytes());
  const e = new wasm.Instance(compiled, { wasi_snapshot_preview1: wasi }).exports as Exports;
  e._initialize();
  const INPUT = 1 << 16;
  const input = e.td_alloc(INPUT);
  let image = 0;
  let imageSize = 0;
  let scanned = false;
  let range: Float32Array | null = null;

  const cString = (pointer: number): string => {
    const bytes = new Uint8Array(e.memory.buffer, pointer);
    return new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0)));
  };
  const check = (status: number, what: string): void => {
    if (status !== OK)
      throw new AudioDecodeError('corrupt', `MP3 decoder: ${what} failed (${cString(e.td_error())}).`);
  };

  return {
    openFeed(options) {
      e.td_mix(options?.mix ? 1 : 0);
      check(e.td_open_feed(), 'open');
    },
    feed(bytes) {
      for (let o = 0; o < bytes.length; o += INPUT) {
        const part = bytes.subarray(o, o + INPUT);
        new Uint8Array(e.memory.buffer, input, part.length).set(part);
        check(e.td_feed(input, part.length), 'feed');
      }
    },
    openMemory(file, options) {
      this.imageBuffer(file.length).set(file);
      this.openImage(options);
    },
    imageBuffer(size) {
      if (image) e.td_free(image);
      image = e.td_alloc(Math.max(1, size));
      if (!image) throw new AudioDecodeError('unsupported', 'MP3 decoder: the file does not fit in memory.');
      imageSize = size;
      return new Uint8Array(e.memory.buffer, image, size);
    },
    openImage(options) {
      e.td_mix(options?.mix ? 1 : 0);
      scanned = false;
      check(e.td_open_memory(image, imageSize), 'open');
    },
    length() {
      if (!scanned) {
        check(e.td_scan(), 'scan');
        scanned = true;
      }
      const n = e.td_length();
      if (n < 0) throw new AudioDecodeError('corrupt', 'MP3 decoder: the length of the stream is unknown.');
      return n;
    },
    seek(offset) {
      const at = e.td_seek(offset);
      if (at < 0) throw new AudioDecodeError('corrupt', `MP3 decoder: cannot seek to sample ${offset}.`);
      return at;
    },
    read() {
      const status = e.td_read();
      if (status === OK) return 'ok';
      if (status === NEED_MORE) return 'need-more';
      if (status === DONE) return 'done';
      if (status === NEW_FORMAT) return 'new-format';
      throw new AudioDecodeError('corrupt', `MP3 decoder: ${cString(e.td_error())}.`);
    },
    frames: () => e.td_frames(),
    planar() {
      const n = e.td_frames();
      const left = new Float32Array(e.memory.buffer, e.td_left(), n);
      return e.td_channels() === 2 ? [left, new Float32Array(e.memory.buffer, e.td_right(), n)] : [left];
    },
    minMax(from, to, out) {
      e.td_minmax(from, to);
      // A grown memory has a new buffer (the old one is detached): the view follows it.
      if (range?.buffer !== e.memory.buffer) range = new Float32Array(e.memory.buffer, e.td_range(), 2);
      out[0] = range[0] as number;
      out[1] = range[1] as number;
    },
    get sampleRate() {
      return e.td_rate();
    },
    get channels() {
      return e.td_channels();
    },
  };
}
