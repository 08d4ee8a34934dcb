import { AudioDecodeError } from './errors';

/** Sample layout of a WAV data chunk, as read from its fmt chunk. */
export interface WavFormat {
  sampleRate: number;
  channels: number;
  /** Valid bits per sample (e.g. 24 for WAVE_FORMAT_EXTENSIBLE 24-in-32 or packed 24). */
  bitDepth: number;
  /** Container bits per sample. */
  containerBits: number;
  encoding: 'int' | 'float';
  /** ffmpeg-style codec name, e.g. 'pcm_s24le'. */
  codec: string;
  blockAlign: number;
  /** Bytes of sample data the header declares; null when unknown (streamed writer). */
  dataBytes: number | null;
  container: 'RIFF' | 'RF64';
}

/** Callbacks of the incremental WAV decoder. */
export interface WavDecoderSink {
  /** Called once, when the fmt chunk and the start of the data chunk have been seen. */
  onFormat?(format: WavFormat): void;
  /** Planar samples in -1..1. The arrays are reused between calls: consume or copy before returning. */
  onData(planar: Float32Array[], frames: number): void;
}

/** Incremental WAV decoder: feed Buffers of any size, in order. */
export interface WavDecoder {
  write(chunk: Uint8Array): void;
  /** Checks that the data chunk was complete; returns the total decoded frames. */
  end(): number;
  readonly format: WavFormat | null;
  readonly frames: number;
}

const WAVE_FORMAT_PCM = 0x0001;
const WAVE_FORMAT_IEEE_FLOAT = 0x0003;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;
const BLOCK_FRAMES = 16384;
const MAX_HEADER_CHUNK = 1 << 20;

type Stage = 'riff' | 'chunk-header' | 'chunk-body' | 'skip' | 'data' | 'after-data';

/** Creates a streaming RIFF/RF64 WAVE decoder (PCM 8/16/24/32-bit, float 32/64, any rate and channel count). */
export function createWavDecoder(sink: WavDecoderSink): WavDecoder {
  let stage: Stage = 'riff';
  let pending: Uint8Array = new Uint8Array(0); // header bytes awaiting a complete structure
  let need = 12;
  let chunkId = '';
  let skipLeft = 0;
  let dataLeft = Number.POSITIVE_INFINITY;
  let ds64DataSize: number | null = null;
  let container: 'RIFF' | 'RF64' = 'RIFF';
  let format: WavFormat | null = null;
  let fmt: Omit<WavFormat, 'dataBytes' | 'container'> | null = null;
  let frames = 0;
  let carry = new Uint8Array(0); // partial frame between writes
  let out: Float32Array[] = [];
  let decodeFrames: ((b: Uint8Array, offset: number, count: number) => void) | null = null;

  const fourcc = (b: Uint8Array, o: number): string =>
    String.fromCharCode(b[o] ?? 0, b[o + 1] ?? 0, b[o + 2] ?? 0, b[o + 3] ?? 0);
  const u16 = (b: Uint8Array, o: number): number => (b[o] ?? 0) | ((b[o + 1] ?? 0) << 8);
  const u32 = (b: Uint8Array, o: number): number => (u16(b, o) + u16(b, o + 2) * 65536) >>> 0;

  function parseFmt(b: Uint8Array): void {
    if (b.length < 16)
      throw new AudioDecodeError('corrupt', 'Corrupt WAV: fmt chunk is shorter than 16 bytes.');
    let tag = u16(b, 0);
    const channels = u16(b, 2);
    const sampleRate = u32(b, 4);
    const blockAlign = u16(b, 12);
    const containerBits = u16(b, 14);
    let bitDepth = containerBits;
    if (tag === WAVE_FORMAT_EXTENSIBLE) {
      if (b.length < 40)
        throw new AudioDecodeError('corrupt', 'Corrupt WAV: WAVE_FORMAT_EXTENSIBLE fmt chunk too short.');
      const valid = u16(b, 18);
      if (valid > 0 && valid <= containerBits) bitDepth = valid;
      tag = u16(b, 24); // first two bytes of the SubFormat GUID carry the format tag
    }
    if (channels < 1) throw new AudioDecodeError('corrupt', 'Corrupt WAV: zero channels.');
    if (sampleRate < 1) throw new AudioDecodeError('corrupt', 'Corrupt WAV: zero sample rate.');
    let encoding: 'int' | 'float';
    if (tag === WAVE_FORMAT_PCM) encoding = 'int';
    else if (tag === WAVE_FORMAT_IEEE_FLOAT) encoding = 'float';
    else
      throw new AudioDecodeError(
        'unsupported',
        `Unsupported WAV encoding 0x${tag.toString(16)} (only PCM integer and IEEE float are supported).`,
      );
    const okBits = encoding === 'int' ? [8, 16, 24, 32] : [32, 64];
    if (!okBits.includes(containerBits))
      throw new AudioDecodeError(
        'unsupported',
        `Unsupported WAV sample size: ${containerBits}-bit ${encoding}.`,
      );
    if (blockAlign !== (containerBits / 8) * channels)
      throw new AudioDecodeError(
        'corrupt',
        `Corrupt WAV: block align ${blockAlign} does not match ${channels}x${containerBits}-bit.`,
      );
    const codec =
      encoding === 'float'
        ? `pcm_f${containerBits}le`
        : containerBits === 8
          ? 'pcm_u8'
          : `pcm_s${containerBits}le`;
    fmt = { sampleRate, channels, bitDepth, containerBits, encoding, codec, blockAlign };
  }

  function startData(declared: number): void {
    if (!fmt) throw new AudioDecodeError('corrupt', 'Corrupt WAV: data chunk before fmt chunk.');
    let dataBytes: number | null = declared;
    if (container === 'RF64' && declared === 0xffffffff) dataBytes = ds64DataSize;
    else if (declared === 0xffffffff) dataBytes = null; // header of a streamed (pipe) writer: read to EOF
    dataLeft = dataBytes ?? Number.POSITIVE_INFINITY;
    format = { ...fmt, dataBytes, container };
    out = Array.from({ length: fmt.channels }, () => new Float32Array(BLOCK_FRAMES));
    decodeFrames = makeFrameDecoder(format, out);
    sink.onFormat?.(format);
    stage = 'data';
  }

  function emit(b: Uint8Array, offset: number, count: number): void {
    const decode = decodeFrames;
    if (!decode) return;
    const align = format?.blockAlign ?? 1;
    let done = 0;
    while (done < count) {
      const n = Math.min(BLOCK_FRAMES, count - done);
      decode(b, offset + done * align, n);
      frames += n;
      sink.onData(n === BLOCK_FRAMES ? out : out.map((c) => c.subarray(0, n)), n);
      done += n;
    }
  }

  function writeData(b: Uint8Array): Uint8Array {
    const align = format?.blockAlign ?? 1;
    const take = Math.min(b.length, dataLeft);
    let body = b.subarray(0, take);
    dataLeft -= take;
    if (carry.length > 0) {
      const fill = Math.min(align - carry.length, body.length);
      const joined = new Uint8Array(carry.length + fill);
      joined.set(carry);
      joined.set(body.subarray(0, fill), carry.length);
      body = body.subarray(fill);
      if (joined.length === align) {
        emit(joined, 0, 1);
        carry = new Uint8Array(0);
      } else carry = joined;
    }
    const whole = Math.floor(body.length / align);
    if (whole > 0) emit(body, 0, whole);
    const rest = body.length - whole * align;
    if (rest > 0) carry = body.slice(whole * align);
    if (dataLeft === 0) stage = 'after-data';
    return b.subarray(take);
  }

  function write(chunk: Uint8Array): void {
    // A plain Uint8Array view keeps the decode loops monomorphic (Buffer and Uint8Array would both reach them).
    let b = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    while (b.length > 0) {
      if (stage === 'data') {
        b = writeData(b);
        continue;
      }
      if (stage === 'after-data') return; // trailing chunks (LIST, id3) after the audio are irrelevant
      if (stage === 'skip') {
        const n = Math.min(skipLeft, b.length);
        skipLeft -= n;
        b = b.subarray(n);
        if (skipLeft === 0) {
          stage = 'chunk-header';
          need = 8;
        }
        continue;
      }
      // Accumulate header structures (RIFF header, chunk headers, fmt/ds64 bodies) in `pending`.
      const want = need - pending.length;
      const piece = b.subarray(0, want);
      const joined = new Uint8Array(pending.length + piece.length);
      joined.set(pending);
      joined.set(piece, pending.length);
      pending = joined;
      b = b.subarray(piece.length);
      if (pending.length < need) return;
      const h = pending;
      pending = new Uint8Array(0);
      if (stage === 'riff') {
        const id = fourcc(h, 0);
        if ((id !== 'RIFF' && id !== 'RF64') || fourcc(h, 8) !== 'WAVE')
          throw new AudioDecodeError('not-wav', 'Not a WAV file: missing RIFF/WAVE header.');
        container = id;
        stage = 'chunk-header';
        need = 8;
      } else if (stage === 'chunk-header') {
        chunkId = fourcc(h, 0);
        const size = u32(h, 4);
        if (chunkId === 'data') {
          startData(size);
        } else if (chunkId === 'fmt ' || chunkId === 'ds64') {
          if (size > MAX_HEADER_CHUNK)
            throw new AudioDecodeError('corrupt', `Corrupt WAV: ${chunkId} chunk of ${size} bytes.`);
          stage = 'chunk-body';
          need = size + (size & 1);
          if (need === 0) {
            stage = 'chunk-header';
            need = 8;
          }
        } else {
          stage = 'skip';
          skipLeft = size + (size & 1);
          if (skipLeft === 0) {
            stage = 'chunk-header';
            need = 8;
          }
        }
      } else if (stage === 'chunk-body') {
        if (chunkId === 'fmt ') parseFmt(h);
        else if (h.length >= 16) ds64DataSize = u32(h, 8) + u32(h, 12) * 2 ** 32;
        stage = 'chunk-header';
        need = 8;
      }
    }
  }

  function end(): number {
    if (stage === 'riff' || stage === 'chunk-header' || stage === 'chunk-body' || stage === 'skip') {
      if (stage === 'riff' && pending.length === 0)
        throw new AudioDecodeError('not-wav', 'Not a WAV file: it is empty.');
      if (stage === 'riff')
        throw new AudioDecodeError('not-wav', 'Not a WAV file: missing RIFF/WAVE header.');
      throw new AudioDecodeError(
        'truncated',
        fmt
          ? 'Truncated WAV: the file ends before its data chunk.'
          : 'Truncated WAV: the file ends before its fmt chunk.',
      );
    }
    if (stage === 'data' && Number.isFinite(dataLeft) && dataLeft > 0) {
      const declared = format?.dataBytes ?? 0;
      throw new AudioDecodeError(
        'truncated',
        `Truncated WAV: the data chunk declares ${declared} bytes but only ${declared - dataLeft} are present.`,
      );
    }
    return frames;
  }

  return {
    write,
    end,
    get format() {
      return format;
    },
    get frames() {
      return frames;
    },
  };
}

/** One little-endian signed 16-bit sample at `o`, scaled to -1..1 (small enough for V8 to inline in the loops). */
const s16 = (b: Uint8Array, o: number): number =>
  ((((b[o + 1] as number) << 24) | ((b[o] as number) << 16)) >> 16) * (1 / 32768);

/** One little-endian signed 24-bit sample at `o`, scaled to -1..1. */
const s24 = (b: Uint8Array, o: number): number =>
  ((((b[o + 2] as number) << 24) | ((b[o + 1] as number) << 16) | ((b[o] as number) << 8)) >> 8) *
  (1 / 8388608);

/** Builds the tight de-interleaving loop for one sample format. */
function makeFrameDecoder(
  f: WavFormat,
  out: Float32Array[],
): (b: Uint8Array, offset: number, count: number) => void {
  const nch = f.channels;
  const align = f.blockAlign;
  if (f.encoding === 'float') {
    const is64 = f.containerBits === 64;
    return (b, offset, count) => {
      const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
      for (let c = 0; c < nch; c++) {
        const dst = out[c] as Float32Array;
        let o = offset + c * (is64 ? 8 : 4);
        if (is64) for (let i = 0; i < count; i++, o += align) dst[i] = view.getFloat64(o, true);
        else for (let i = 0; i < count; i++, o += align) dst[i] = view.getFloat32(o, true);
      }
    };
  }
  switch (f.containerBits) {
    case 8:
      return (b, offset, count) => {
        for (let c = 0; c < nch; c++) {
          const dst = out[c] as Float32Array;
          let o = offset + c;
          for (let i = 0; i < count; i++, o += align) dst[i] = ((b[o] as number) - 128) * (1 / 128);
        }
      };
    case 16:
      if (nch === 2)
        return (b, offset, count) => {
          const left = out[0] as Float32Array;
          const right = out[1] as Float32Array;
          for (let i = 0, o = offset; i < count; i++, o += align) {
            left[i] = s16(b, o);
            right[i] = s16(b, o + 2);
          }
        };
      return (b, offset, count) => {
        for (let c = 0; c < nch; c++) {
          const dst = out[c] as Float32Array;
          let o = offset + c * 2;
          for (let i = 0; i < count; i++, o += align) dst[i] = s16(b, o);
        }
      };
    case 24:
      // Stereo in one pass over each frame: half the loop overhead and a single sweep through memory.
      if (nch === 2)
        return (b, offset, count) => {
          const left = out[0] as Float32Array;
          const right = out[1] as Float32Array;
          for (let i = 0, o = offset; i < count; i++, o += align) {
            left[i] = s24(b, o);
            right[i] = s24(b, o + 3);
          }
        };
      return (b, offset, count) => {
        for (let c = 0; c < nch; c++) {
          const dst = out[c] as Float32Array;
          let o = offset + c * 3;
          for (let i = 0; i < count; i++, o += align) dst[i] = s24(b, o);
        }
      };
    default:
      return (b, offset, count) => {
        for (let c = 0; c < nch; c++) {
          const dst = out[c] as Float32Array;
          let o = offset + c * 4;
          for (let i = 0; i < count; i++, o += align)
            dst[i] =
              ((b[o] as number) |
                ((b[o + 1] as number) << 8) |
                ((b[o + 2] as number) << 16) |
                ((b[o + 3] as number) << 24)) *
              (1 / 2147483648);
        }
      };
  }
}
