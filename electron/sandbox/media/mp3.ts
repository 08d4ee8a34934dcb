/**
 * MP3 encoding with @breezystack/lamejs. lamejs is LGPL-3.0: it stays an external runtime
 * dependency loaded from node_modules (electron-vite externalizes dependencies), and its code is
 * never copied or bundled into ours, so it can be replaced by the user as the LGPL requires.
 */
import { Mp3Encoder } from '@breezystack/lamejs';
import type { AudioSource } from './synth';
import { writeChunksToFile } from './wav-writer';

/** Options of the MP3 encoder. */
export interface Mp3Options {
  /** Constant bit rate; 128 for deliverables, 96 for search samples. */
  kbps?: number | undefined;
}

// A multiple of the 1152-sample MPEG frame keeps lamejs from buffering odd remainders.
const BLOCK = 1152 * 16;
const FIRST_BLOCK = 1152;

function toInt16(src: Float32Array, n: number, dst: Int16Array): Int16Array {
  for (let i = 0; i < n; i++) {
    const x = src[i]!;
    dst[i] = Math.round((x > 1 ? 1 : x < -1 ? -1 : x) * 32_767);
  }
  return n === dst.length ? dst : dst.subarray(0, n);
}

/** Streams a mono or stereo source as CBR MP3 chunks (lamejs output buffers, copied). */
export function* mp3Chunks(source: AudioSource, opts: Mp3Options = {}): Generator<Uint8Array> {
  if (source.channels !== 1 && source.channels !== 2) throw new RangeError('MP3 needs 1 or 2 channels');
  const encoder = new Mp3Encoder(source.channels, source.sampleRate, opts.kbps ?? 128);
  const block = Array.from({ length: source.channels }, () => new Float32Array(BLOCK));
  const left = new Int16Array(BLOCK);
  const right = new Int16Array(BLOCK);
  // Small blocks first, doubling to the full one: a stream's first bytes leave after a frame's work, not 16
  // frames' (a listener waits for them). The bytes are the same: the encoder frames its input whatever the split.
  let size = FIRST_BLOCK;
  for (;;) {
    const n = source.read(size === BLOCK ? block : block.map((channel) => channel.subarray(0, size)));
    if (n <= 0) break;
    const l = toInt16(block[0]!, n, left);
    const out =
      source.channels === 2 ? encoder.encodeBuffer(l, toInt16(block[1]!, n, right)) : encoder.encodeBuffer(l);
    if (out.length > 0) yield Uint8Array.from(out);
    size = Math.min(BLOCK, size * 2);
  }
  const tail = encoder.flush();
  if (tail.length > 0) yield Uint8Array.from(tail);
}

/** Writes a source as an MP3 file at `path` (fsynced); returns its size in bytes. */
export function writeMp3File(path: string, source: AudioSource, opts: Mp3Options = {}): Promise<number> {
  return writeChunksToFile(path, mp3Chunks(source, opts));
}
