// Binary layout of `<file>.peaks` (little-endian), shared by main (writer) and renderer (reader):
//   0  'TDPK' magic            4  u16 version (1)      6  u16 bits per value (8 | 16)
//   8  u32 sampleRate         12  u16 channels        14  u16 level count
//  16  f64 durationSeconds    24  f64 frames
//  32  per level: u32 samplesPerPixel, u32 bucketCount
//  then per level: bucketCount (min, max) pairs as Int8/Int16, full scale = 127/32767.

/** Magic bytes at the start of a peaks file. */
export const PEAKS_MAGIC = 'TDPK';
/** Current peaks file version. */
export const PEAKS_VERSION = 1;
const HEADER_BYTES = 32;
const LEVEL_HEADER_BYTES = 8;

/** Waveform envelope at one resolution: interleaved min,max per bucket, values in -1..1. */
export interface PeaksLevel {
  samplesPerPixel: number;
  /** [min0, max0, min1, max1, ...] of the channel mix. */
  minMax: Float32Array;
}

/** Decoded peaks file. */
export interface PeaksData {
  sampleRate: number;
  channels: number;
  durationSeconds: number;
  frames: number;
  /** Finest resolution first. */
  levels: PeaksLevel[];
}

/** Thrown for a buffer that is not a valid peaks file. */
export class PeaksFormatError extends Error {
  override name = 'PeaksFormatError';
}

/** Serialises peaks compactly (16-bit by default; 8-bit halves the size for overview-only use). */
export function encodePeaks(data: PeaksData, bits: 8 | 16 = 16): Uint8Array {
  const bytesPerValue = bits / 8;
  const full = bits === 16 ? 32767 : 127;
  let size = HEADER_BYTES + LEVEL_HEADER_BYTES * data.levels.length;
  for (const level of data.levels) size += level.minMax.length * bytesPerValue;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  for (let i = 0; i < 4; i++) view.setUint8(i, PEAKS_MAGIC.charCodeAt(i));
  view.setUint16(4, PEAKS_VERSION, true);
  view.setUint16(6, bits, true);
  view.setUint32(8, data.sampleRate, true);
  view.setUint16(12, data.channels, true);
  view.setUint16(14, data.levels.length, true);
  view.setFloat64(16, data.durationSeconds, true);
  view.setFloat64(24, data.frames, true);
  let offset = HEADER_BYTES;
  for (const level of data.levels) {
    view.setUint32(offset, level.samplesPerPixel, true);
    view.setUint32(offset + 4, level.minMax.length / 2, true);
    offset += LEVEL_HEADER_BYTES;
  }
  for (const level of data.levels) {
    const mm = level.minMax;
    for (let i = 0; i < mm.length; i++) {
      const v = Math.max(-1, Math.min(1, mm[i] ?? 0));
      // Round the envelope outwards so quantisation never hides a peak.
      const q = (i & 1) === 0 ? Math.floor(v * full) : Math.ceil(v * full);
      if (bits === 16) view.setInt16(offset, q, true);
      else view.setInt8(offset, q);
      offset += bytesPerValue;
    }
  }
  return out;
}

/** Parses a peaks file; throws PeaksFormatError on a wrong magic, version or a truncated buffer. */
export function decodePeaks(input: ArrayBuffer | ArrayBufferView): PeaksData {
  const view =
    input instanceof ArrayBuffer
      ? new DataView(input)
      : new DataView(input.buffer, input.byteOffset, input.byteLength);
  if (view.byteLength < HEADER_BYTES) throw new PeaksFormatError('Peaks file is truncated (no header).');
  let magic = '';
  for (let i = 0; i < 4; i++) magic += String.fromCharCode(view.getUint8(i));
  if (magic !== PEAKS_MAGIC) throw new PeaksFormatError('Not a peaks file (bad magic).');
  const version = view.getUint16(4, true);
  if (version !== PEAKS_VERSION) throw new PeaksFormatError(`Unsupported peaks file version ${version}.`);
  const bits = view.getUint16(6, true);
  if (bits !== 8 && bits !== 16) throw new PeaksFormatError(`Unsupported peaks value size ${bits} bits.`);
  const bytesPerValue = bits / 8;
  const full = bits === 16 ? 32767 : 127;
  const levelCount = view.getUint16(14, true);
  let offset = HEADER_BYTES;
  if (view.byteLength < offset + levelCount * LEVEL_HEADER_BYTES)
    throw new PeaksFormatError('Peaks file is truncated.');
  const heads: Array<{ samplesPerPixel: number; buckets: number }> = [];
  for (let l = 0; l < levelCount; l++) {
    heads.push({ samplesPerPixel: view.getUint32(offset, true), buckets: view.getUint32(offset + 4, true) });
    offset += LEVEL_HEADER_BYTES;
  }
  const levels: PeaksLevel[] = [];
  for (const head of heads) {
    const n = head.buckets * 2;
    if (view.byteLength < offset + n * bytesPerValue) throw new PeaksFormatError('Peaks file is truncated.');
    const minMax = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      minMax[i] = (bits === 16 ? view.getInt16(offset, true) : view.getInt8(offset)) / full;
      offset += bytesPerValue;
    }
    levels.push({ samplesPerPixel: head.samplesPerPixel, minMax });
  }
  return {
    sampleRate: view.getUint32(8, true),
    channels: view.getUint16(12, true),
    durationSeconds: view.getFloat64(16, true),
    frames: view.getFloat64(24, true),
    levels,
  };
}

/**
 * Shapes one level for wavesurfer.js 7 (`peaks` + `duration` options): it draws channel 0 above the axis and
 * channel 1 below (by magnitude), so we pass [max, min]. Picks the finest level with at most `maxBuckets`.
 */
export function toWavesurferPeaks(
  data: PeaksData,
  maxBuckets = Number.POSITIVE_INFINITY,
): { peaks: Float32Array[]; duration: number } {
  const level =
    data.levels.find((l) => l.minMax.length / 2 <= maxBuckets) ?? data.levels[data.levels.length - 1];
  const n = level ? level.minMax.length / 2 : 0;
  const max = new Float32Array(n);
  const min = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    min[i] = level?.minMax[2 * i] ?? 0;
    max[i] = level?.minMax[2 * i + 1] ?? 0;
  }
  return { peaks: [max, min], duration: data.durationSeconds };
}
