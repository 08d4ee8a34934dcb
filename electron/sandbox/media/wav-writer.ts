import { open, type FileHandle } from 'node:fs/promises';
import type { AudioSource } from './synth';

/** PCM sample width of a WAV file. */
export type BitDepth = 16 | 24;

/** Shape of the PCM data in a WAV file. */
export interface WavFormat {
  sampleRate: number;
  channels: number;
  bitDepth: BitDepth;
}

/** Bytes of the canonical RIFF/WAVE header written here (fmt chunk with plain PCM, then data). */
export const WAV_HEADER_BYTES = 44;
const MAX_RIFF = 0xffff_ffff;

/** Bytes of PCM sample data for `frames` frames. */
export function wavDataBytes(frames: number, fmt: WavFormat): number {
  return frames * fmt.channels * (fmt.bitDepth / 8);
}

/** Exact file size, known before any audio is generated, so a server can send Content-Length. */
export function wavFileBytes(frames: number, fmt: WavFormat): number {
  const data = wavDataBytes(frames, fmt);
  // RIFF chunks are word aligned: an odd data chunk is followed by one pad byte.
  return WAV_HEADER_BYTES + data + (data % 2);
}

/** The 44-byte header for `frames` frames; throws RangeError past the 4 GiB RIFF limit. */
export function wavHeader(frames: number, fmt: WavFormat): Buffer {
  if (!Number.isInteger(frames) || frames < 0) throw new RangeError(`bad frame count ${frames}`);
  const data = wavDataBytes(frames, fmt);
  const riff = wavFileBytes(frames, fmt) - 8;
  if (riff > MAX_RIFF) throw new RangeError('WAV data larger than the RIFF limit of 4 GiB');
  const blockAlign = fmt.channels * (fmt.bitDepth / 8);
  const h = Buffer.alloc(WAV_HEADER_BYTES);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(riff, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // WAVE_FORMAT_PCM
  h.writeUInt16LE(fmt.channels, 22);
  h.writeUInt32LE(fmt.sampleRate, 24);
  h.writeUInt32LE(fmt.sampleRate * blockAlign, 28);
  h.writeUInt16LE(blockAlign, 32);
  h.writeUInt16LE(fmt.bitDepth, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(data, 40);
  return h;
}

/**
 * Interleaves `frames` frames of planar float audio into little-endian PCM, written into
 * `target` at `offset` (allocated when absent). Returns the bytes written. Rounds, no dither,
 * so the output is a pure function of the input.
 */
export function encodePcm(
  planar: readonly Float32Array[],
  frames: number,
  bitDepth: BitDepth,
  target?: Buffer,
  offset = 0,
): { buffer: Buffer; bytes: number } {
  const channels = planar.length;
  const width = bitDepth / 8;
  const bytes = frames * channels * width;
  const buf = target ?? Buffer.allocUnsafe(bytes);
  if (buf.length < offset + bytes) throw new RangeError('target buffer too small');
  const full = bitDepth === 24 ? 8_388_607 : 32_767;
  const step = channels * width;
  for (let c = 0; c < channels; c++) {
    const ch = planar[c]!;
    let o = offset + c * width;
    for (let i = 0; i < frames; i++, o += step) {
      const x = ch[i]!;
      let v = Math.round((x > 1 ? 1 : x < -1 ? -1 : x) * full);
      if (v < 0) v += bitDepth === 24 ? 0x1000000 : 0x10000;
      buf[o] = v & 0xff;
      buf[o + 1] = (v >> 8) & 0xff;
      if (width === 3) buf[o + 2] = (v >> 16) & 0xff;
    }
  }
  return { buffer: buf, bytes };
}

/** Options of the streaming WAV encoder. */
export interface WavStreamOptions {
  /** Default 24. */
  bitDepth?: BitDepth | undefined;
  /** Frames generated per block; default 65 536 (about 1.4 s at 48 kHz). */
  blockFrames?: number | undefined;
}

/**
 * Streams a source as WAV: header first, then PCM chunks of a few hundred kilobytes. The total
 * equals wavFileBytes(source.frames, ...). Chunks are fresh buffers, safe to hold on to.
 */
export function* wavChunks(source: AudioSource, opts: WavStreamOptions = {}): Generator<Buffer> {
  const bitDepth = opts.bitDepth ?? 24;
  const fmt: WavFormat = { sampleRate: source.sampleRate, channels: source.channels, bitDepth };
  yield wavHeader(source.frames, fmt);
  const blockFrames = opts.blockFrames ?? 65_536;
  const block = Array.from({ length: source.channels }, () => new Float32Array(blockFrames));
  let written = 0;
  for (let n = source.read(block); n > 0; n = source.read(block)) {
    yield encodePcm(block, n, bitDepth).buffer;
    written += n;
  }
  if (written !== source.frames) throw new Error(`source gave ${written} frames, announced ${source.frames}`);
  if (wavDataBytes(written, fmt) % 2 === 1) yield Buffer.alloc(1);
}

/** Writes all of `chunk`, looping on short writes. */
async function writeFully(fh: FileHandle, chunk: Uint8Array): Promise<void> {
  let at = 0;
  while (at < chunk.length) {
    const { bytesWritten } = await fh.write(chunk, at, chunk.length - at);
    at += bytesWritten;
  }
}

/** Writes every chunk to a new file at `path` (fsynced, closed even on failure); returns its size in bytes. */
export async function writeChunksToFile(path: string, chunks: Iterable<Uint8Array>): Promise<number> {
  const fh = await open(path, 'w');
  let size = 0;
  try {
    for (const chunk of chunks) {
      await writeFully(fh, chunk);
      size += chunk.length;
    }
    await fh.sync();
  } finally {
    await fh.close();
  }
  return size;
}

/** Writes a source as a WAV file at `path` (fsynced); returns its size in bytes. */
export function writeWavFile(
  path: string,
  source: AudioSource,
  opts: WavStreamOptions = {},
): Promise<number> {
  return writeChunksToFile(path, wavChunks(source, opts));
}
