import { MPEGDecoder } from 'mpg123-decoder';
import { AudioDecodeError } from './errors';

/** Stream facts of an MP3, known after the first decoded frame. */
export interface Mp3Format {
  sampleRate: number;
  channels: number;
  codec: 'mp3';
}

/** Callbacks of the incremental MP3 decoder. */
export interface Mp3DecoderSink {
  onFormat?(format: Mp3Format): void;
  /** Planar samples in -1..1 (fresh arrays from the decoder). */
  onData(planar: Float32Array[], frames: number): void;
}

/** Incremental MP3 decoder (mpg123 in WebAssembly). */
export interface Mp3Decoder {
  /** Resolves once the WASM module is ready; write() before that is queued. */
  ready: Promise<void>;
  write(chunk: Uint8Array): Promise<void>;
  /** Flushes and frees the decoder; returns total frames. Throws when no frame could be decoded. */
  end(): Promise<number>;
  readonly format: Mp3Format | null;
}

/** Creates a streaming MP3 decoder; gapless (LAME/Xing encoder delay and padding removed). */
export function createMp3Decoder(sink: Mp3DecoderSink): Mp3Decoder {
  const decoder = new MPEGDecoder({ enableGapless: true });
  let format: Mp3Format | null = null;
  let frames = 0;
  let inputBytes = 0;
  let freed = false;

  function deliver(decoded: {
    channelData: Float32Array[];
    samplesDecoded: number;
    sampleRate: number;
  }): void {
    const n = decoded.samplesDecoded;
    if (n === 0) return;
    if (!format) {
      format = { sampleRate: decoded.sampleRate, channels: decoded.channelData.length, codec: 'mp3' };
      sink.onFormat?.(format);
    } else if (decoded.sampleRate !== format.sampleRate || decoded.channelData.length !== format.channels) {
      throw new AudioDecodeError('unsupported', 'MP3 changes sample rate or channel count mid-stream.');
    }
    frames += n;
    sink.onData(decoded.channelData, n);
  }

  async function write(chunk: Uint8Array): Promise<void> {
    await decoder.ready;
    inputBytes += chunk.length;
    // Feed in slices so each decoded batch (and its output arrays) stays small.
    for (let o = 0; o < chunk.length; o += 1 << 16) deliver(decoder.decode(chunk.subarray(o, o + (1 << 16))));
  }

  async function end(): Promise<number> {
    await decoder.ready;
    if (!freed) {
      decoder.free();
      freed = true;
    }
    if (frames === 0)
      throw new AudioDecodeError(
        'not-mp3',
        inputBytes === 0
          ? 'Not an MP3 file: it is empty.'
          : 'Not an MP3 file: no MPEG audio frame could be decoded.',
      );
    return frames;
  }

  return {
    ready: decoder.ready,
    write,
    end,
    get format() {
      return format;
    },
  };
}
