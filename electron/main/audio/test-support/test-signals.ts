// Synthetic signals and minimal WAV/MP3 writers for the audio tests (EBU Tech 3341/3342 style material).
import { mp3Chunks } from '../../../sandbox/media/mp3';

/** One segment of a test sequence: a 1 kHz (default) sine at `dbfs` for `seconds`. */
export interface ToneSegment {
  dbfs: number;
  seconds: number;
  frequency?: number;
}

/** Concatenated sine segments (phase-continuous), one Float32Array; -Infinity dBFS gives silence. */
export function toneSequence(sampleRate: number, segments: readonly ToneSegment[], phase = 0): Float32Array {
  const total = segments.reduce((n, s) => n + Math.round(s.seconds * sampleRate), 0);
  const out = new Float32Array(total);
  let i = 0;
  let ph = phase;
  for (const s of segments) {
    const n = Math.round(s.seconds * sampleRate);
    const a = Number.isFinite(s.dbfs) ? 10 ** (s.dbfs / 20) : 0;
    const w = (2 * Math.PI * (s.frequency ?? 1000)) / sampleRate;
    for (let k = 0; k < n; k++, i++) {
      out[i] = a * Math.sin(ph);
      ph += w;
    }
  }
  return out;
}

/** The same tone sequence on both channels: planar stereo. */
export function stereoTones(sampleRate: number, segments: readonly ToneSegment[]): Float32Array[] {
  const x = toneSequence(sampleRate, segments);
  return [x, x];
}

/** Feeds planar audio to `push` in blocks of `block` frames (odd sizes exercise the incremental paths). */
export function pushInBlocks(
  planar: readonly Float32Array[],
  push: (p: Float32Array[], n: number) => void,
  block = 4096,
): void {
  const n = planar[0]?.length ?? 0;
  for (let i = 0; i < n; i += block) {
    const m = Math.min(block, n - i);
    push(
      planar.map((c) => c.subarray(i, i + m)),
      m,
    );
  }
}

/** Options of encodeWav. */
export interface WavEncodeOptions {
  sampleRate: number;
  /** 8, 16, 24, 32 integer or 32/64 float. */
  bits: 8 | 16 | 24 | 32 | 64;
  float?: boolean;
  /** Write a WAVE_FORMAT_EXTENSIBLE fmt chunk (as ffmpeg does for 24-bit). */
  extensible?: boolean;
  /** Insert a LIST chunk of this odd size before data, to test chunk skipping and padding. */
  junkBytes?: number;
  rf64?: boolean;
}

/** Writes planar samples as a WAV file image. */
export function encodeWav(planar: readonly Float32Array[], o: WavEncodeOptions): Uint8Array {
  const channels = planar.length;
  const frames = planar[0]?.length ?? 0;
  const bps = o.bits / 8;
  const dataBytes = frames * channels * bps;
  const fmtSize = o.extensible ? 40 : 16;
  const junk = o.junkBytes ?? 0;
  const junkChunk = junk > 0 ? 8 + junk + (junk & 1) : 0;
  const ds64 = o.rf64 ? 8 + 28 : 0;
  const size = 12 + ds64 + 8 + fmtSize + junkChunk + 8 + dataBytes;
  const buf = new Uint8Array(size);
  const v = new DataView(buf.buffer);
  const str = (at: number, s: string): void => {
    for (let i = 0; i < s.length; i++) buf[at + i] = s.charCodeAt(i);
  };
  let p = 0;
  str(p, o.rf64 ? 'RF64' : 'RIFF');
  v.setUint32(p + 4, o.rf64 ? 0xffffffff : size - 8, true);
  str(p + 8, 'WAVE');
  p += 12;
  if (o.rf64) {
    str(p, 'ds64');
    v.setUint32(p + 4, 28, true);
    v.setUint32(p + 8, size - 8, true);
    v.setUint32(p + 16, dataBytes, true);
    v.setUint32(p + 24, frames, true);
    p += 36;
  }
  str(p, 'fmt ');
  v.setUint32(p + 4, fmtSize, true);
  const tag = o.float ? 3 : 1;
  v.setUint16(p + 8, o.extensible ? 0xfffe : tag, true);
  v.setUint16(p + 10, channels, true);
  v.setUint32(p + 12, o.sampleRate, true);
  v.setUint32(p + 16, o.sampleRate * channels * bps, true);
  v.setUint16(p + 20, channels * bps, true);
  v.setUint16(p + 22, o.bits, true);
  if (o.extensible) {
    v.setUint16(p + 24, 22, true);
    v.setUint16(p + 26, o.bits, true);
    v.setUint32(p + 28, 0, true);
    v.setUint16(p + 32, tag, true);
    // Rest of the KSDATAFORMAT GUID (00000000-0000-0010-8000-00aa00389b71).
    [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71].forEach((b, i) => {
      buf[p + 34 + i] = b;
    });
  }
  p += 8 + fmtSize;
  if (junk > 0) {
    str(p, 'LIST');
    v.setUint32(p + 4, junk, true);
    p += junkChunk;
  }
  str(p, 'data');
  v.setUint32(p + 4, o.rf64 ? 0xffffffff : dataBytes, true);
  p += 8;
  for (let f = 0; f < frames; f++) {
    for (let c = 0; c < channels; c++) {
      const x = Math.max(-1, Math.min(1, (planar[c] as Float32Array)[f] as number));
      if (o.float) {
        if (o.bits === 64) v.setFloat64(p, x, true);
        else v.setFloat32(p, x, true);
      } else if (o.bits === 8) v.setUint8(p, Math.round(x * 127) + 128);
      else if (o.bits === 16) v.setInt16(p, Math.round(x * 32767), true);
      else if (o.bits === 24) {
        const q = Math.round(x * 8388607);
        v.setUint8(p, q & 0xff);
        v.setUint8(p + 1, (q >> 8) & 0xff);
        v.setUint8(p + 2, (q >> 16) & 0xff);
      } else v.setInt32(p, Math.round(x * 2147483647), true);
      p += bps;
    }
  }
  return buf;
}

/** Encodes mono or stereo PCM as CBR MP3 with lamejs (the sandbox's encoder: no gapless tag). */
export function encodeMp3(planar: readonly Float32Array[], sampleRate: number, kbps = 192): Uint8Array {
  const frames = (planar[0] as Float32Array).length;
  let at = 0;
  const source = {
    sampleRate,
    channels: planar.length,
    frames,
    read(out: Float32Array[]) {
      const n = Math.min((out[0] as Float32Array).length, frames - at);
      planar.forEach((channel, c) => (out[c] as Float32Array).set(channel.subarray(at, at + n)));
      at += n;
      return n;
    },
  };
  const chunks = [...mp3Chunks(source, { kbps })];
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let o = 0;
  for (const c of chunks) {
    bytes.set(c, o);
    o += c.length;
  }
  return bytes;
}

/** Joins blocks of planar audio (each block one array per channel) into one array per channel. */
export function joinPlanar(
  blocks: readonly (readonly Float32Array[])[],
  channels = blocks[0]?.length ?? 0,
): Float32Array[] {
  return Array.from({ length: channels }, (_, c) => {
    const out = new Float32Array(blocks.reduce((n, b) => n + b[c]!.length, 0));
    let at = 0;
    for (const b of blocks) {
      out.set(b[c]!, at);
      at += b[c]!.length;
    }
    return out;
  });
}
