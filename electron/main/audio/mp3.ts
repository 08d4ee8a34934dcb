import { AudioDecodeError } from './errors';
import { createMpg123, type Mpg123, type OpenOptions } from './mpg123/mpg123';

/** Stream facts of an MP3, known after the first decoded frame. */
export interface Mp3Format {
  sampleRate: number;
  channels: number;
  codec: 'mp3';
}

/**
 * Least and greatest sample of frames `from` to `to` (exclusive, from < to) of the block being delivered, into
 * out[0] and out[1]: computed inside the decoder (WebAssembly SIMD), so a peaks builder need not scan the samples.
 */
export type BlockMinMax = (from: number, to: number, out: { 0: number; 1: number }) => void;

/** Callbacks of the MP3 decoders. */
export interface Mp3DecoderSink {
  onFormat?(format: Mp3Format): void;
  /**
   * Planar samples in -1..1: views into the decoder's memory, valid only during the call. `minMax` comes with mono
   * blocks (the channel mix that `{ mix: true }` decodes), valid during the call too.
   */
  onData(planar: Float32Array[], frames: number, minMax?: BlockMinMax): void;
}

/** Incremental MP3 decoder (libmpg123 in WebAssembly). */
export interface Mp3Decoder {
  /** Resolved: kept so callers written for an asynchronous decoder need no change. */
  ready: Promise<void>;
  write(chunk: Uint8Array): Promise<void>;
  /** Returns total frames. Throws when no frame could be decoded. */
  end(): Promise<number>;
  readonly format: Mp3Format | null;
}

/** Hands decoded blocks to a sink, checking that the stream keeps one format. */
function createDelivery(decoder: Mpg123, sink: Mp3DecoderSink) {
  let format: Mp3Format | null = null;
  let frames = 0;
  const minMax: BlockMinMax = (from, to, out) => decoder.minMax(from, to, out);
  return {
    /**
     * Drains the decoder into the sink, at most `limit` frames in all; returns why it stopped: 'need-more' (feed
     * mode wants bytes), 'done' (end of a memory-mode file) or 'limit'.
     */
    drain(limit = Number.POSITIVE_INFINITY): 'need-more' | 'done' | 'limit' {
      for (;;) {
        const status = decoder.read();
        if (status === 'new-format') {
          const next = { sampleRate: decoder.sampleRate, channels: decoder.channels, codec: 'mp3' as const };
          if (!format) {
            format = next;
            sink.onFormat?.(format);
          } else if (next.sampleRate !== format.sampleRate || next.channels !== format.channels) {
            throw new AudioDecodeError('unsupported', 'MP3 changes sample rate or channel count mid-stream.');
          }
          continue;
        }
        let n = decoder.frames();
        if (n > 0 && format) {
          n = Math.min(n, limit - frames);
          sink.onData(
            decoder.planar().map((channel) => channel.subarray(0, n)),
            n,
            format.channels === 1 ? minMax : undefined,
          );
          frames += n;
          if (frames >= limit) return 'limit';
        }
        if (status !== 'ok') return status;
      }
    },
    get frames() {
      return frames;
    },
    get format() {
      return format;
    },
  };
}

const notMp3 = (empty: boolean) =>
  new AudioDecodeError(
    'not-mp3',
    empty ? 'Not an MP3 file: it is empty.' : 'Not an MP3 file: no MPEG audio frame could be decoded.',
  );

/** Creates a streaming MP3 decoder; gapless (LAME/Xing encoder delay and padding removed). */
export function createMp3Decoder(sink: Mp3DecoderSink, options?: OpenOptions): Mp3Decoder {
  const decoder = createMpg123();
  decoder.openFeed(options);
  const delivery = createDelivery(decoder, sink);
  let inputBytes = 0;

  return {
    ready: Promise.resolve(),
    async write(chunk) {
      inputBytes += chunk.length;
      // Fed in slices and drained after each, so mpg123's input queue stays small.
      for (let o = 0; o < chunk.length; o += 1 << 16) {
        decoder.feed(chunk.subarray(o, o + (1 << 16)));
        delivery.drain();
      }
    },
    async end() {
      if (delivery.frames === 0) throw notMp3(inputBytes === 0);
      return delivery.frames;
    },
    get format() {
      return delivery.format;
    },
  };
}

/** A part of a whole MP3: samples per channel from `start` up to (not including) `end`; end null = to the end. */
export interface Mp3Span {
  start: number;
  end: number | null;
}

/** What decodeMp3Span read. */
export interface Mp3SpanResult {
  /** Frames handed to the sink. */
  frames: number;
  /** Samples per channel of the whole file (after the gapless trim). */
  length: number;
}

/**
 * Decodes one span of a complete MP3 held in memory. mpg123 scans the frame headers first, so the length is exact
 * and a seek lands on the very sample (it decodes a few frames before it to refill the bit reservoir): the spans
 * of one file, decoded apart and put together, are the samples of decoding it whole. `which` may be a function of
 * the file's length.
 */
export function decodeMp3Span(
  file: Uint8Array,
  which: Mp3Span | ((length: number) => Mp3Span),
  sink: Mp3DecoderSink,
  options?: OpenOptions,
): Mp3SpanResult {
  if (file.length === 0) throw notMp3(true);
  const decoder = createMpg123();
  decoder.openMemory(file, options);
  const length = decoder.length();
  if (length === 0) throw notMp3(false);
  const span = typeof which === 'function' ? which(length) : which;
  if (!(span.start >= 0 && span.start <= length))
    throw new RangeError(`MP3 span starts at sample ${span.start}, after the end (${length}).`);
  const end = Math.min(span.end ?? length, length);
  if (span.start > 0 && decoder.seek(span.start) !== span.start)
    throw new AudioDecodeError('corrupt', `MP3 decoder: cannot seek to sample ${span.start}.`);
  const delivery = createDelivery(decoder, sink);
  if (span.start < end) delivery.drain(end - span.start);
  if (delivery.frames === 0 && span.start < end) throw notMp3(false);
  return { frames: delivery.frames, length };
}

/**
 * Part `index` of `count` near-equal parts of a stream of `length` samples, with seams on multiples of `align`
 * (so that peak buckets never straddle a seam).
 */
export function partSpan(length: number, index: number, count: number, align: number): Mp3Span {
  const seam = (k: number) => Math.min(length, Math.round((length * k) / count / align) * align);
  return { start: seam(index), end: index === count - 1 ? null : seam(index + 1) };
}
