// Decode-only floors for the MP3 peaks comparison (issue 5, 8c): what mpg123-decoder (WASM) alone costs on one
// thread, and the best two threads could do, so the MP3 peaks ratio can be read against the decoder's own limit.
import { readFile } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { MPEGDecoder } from 'mpg123-decoder';

/** Bytes per decode() call, as the app's createMp3Decoder feeds them. */
const SLICE = 1 << 16;

const BITRATES_V1_L3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V2_L3 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const RATES_V1 = [44100, 48000, 32000];

/** Length in bytes of the MPEG Layer III frame whose header starts at `at`, or 0 when there is none. */
export function layer3FrameLength(bytes: Uint8Array, at: number): number {
  const b1 = bytes[at + 1] ?? 0;
  const b2 = bytes[at + 2] ?? 0;
  if (bytes[at] !== 0xff || (b1 & 0xe0) !== 0xe0 || ((b1 >> 1) & 3) !== 1) return 0;
  const version = (b1 >> 3) & 3; // 3: MPEG 1, 2: MPEG 2, 0: MPEG 2.5
  if (version === 1) return 0;
  const kbps = (version === 3 ? BITRATES_V1_L3 : BITRATES_V2_L3)[b2 >> 4] ?? 0;
  const base = RATES_V1[(b2 >> 2) & 3] ?? 0;
  if (kbps === 0 || base === 0) return 0;
  const rate = version === 3 ? base : version === 2 ? base / 2 : base / 4;
  const padding = (b2 >> 1) & 1;
  return Math.floor(((version === 3 ? 144 : 72) * kbps * 1000) / rate) + padding;
}

/** First offset at or after `from` where two Layer III frames follow each other (a real frame start). */
export function frameSyncAfter(bytes: Uint8Array, from: number): number {
  for (let i = from; i + 4 < bytes.length; i++) {
    const len = layer3FrameLength(bytes, i);
    if (len > 0 && layer3FrameLength(bytes, i + len) > 0) return i;
  }
  return bytes.length;
}

/** Decodes bytes [start, end) with mpg123-decoder in app-sized calls; returns samples per channel. */
export async function decodeMp3Range(bytes: Uint8Array, start = 0, end = bytes.length): Promise<number> {
  const decoder = new MPEGDecoder({ enableGapless: true });
  await decoder.ready;
  let samples = 0;
  for (let o = start; o < end; o += SLICE)
    samples += decoder.decode(bytes.subarray(o, Math.min(end, o + SLICE))).samplesDecoded;
  decoder.free();
  return samples;
}

/** Decode only, whole file, this thread: the floor of any one-thread MP3 peaks pass with this decoder. */
export async function mp3DecodeFloor(path: string): Promise<number> {
  return decodeMp3Range(await readFile(path));
}

// Plain JS, so the worker pays no TypeScript loader start-up: the bound stays optimistic.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
import(workerData.decoderUrl).then(async ({ MPEGDecoder }) => {
  const bytes = readFileSync(workerData.path);
  const decoder = new MPEGDecoder({ enableGapless: true });
  await decoder.ready;
  let samples = 0;
  for (let o = workerData.start; o < bytes.length; o += ${SLICE})
    samples += decoder.decode(bytes.subarray(o, Math.min(bytes.length, o + ${SLICE}))).samplesDecoded;
  decoder.free();
  parentPort.postMessage(samples);
});`;

/**
 * Decode only, split at the frame sync nearest the middle: first half on this thread, second half in a worker
 * at the same time. An upper bound on a two-thread split (no warm-up frames, no stitching, no peaks); the
 * returned sample count is only approximate, as the second half is decoded without the gapless trim.
 */
export async function mp3TwoThreadDecodeFloor(path: string): Promise<number> {
  const bytes = await readFile(path);
  const mid = frameSyncAfter(bytes, bytes.length >> 1);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { path, start: mid, decoderUrl: import.meta.resolve('mpg123-decoder') },
  });
  const second = new Promise<number>((resolve, reject) => {
    worker.once('message', (n: number) => resolve(n));
    worker.once('error', reject);
  });
  try {
    const first = await decodeMp3Range(bytes, 0, mid);
    return first + (await second);
  } finally {
    await worker.terminate();
  }
}
