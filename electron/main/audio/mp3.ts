import { openAudioFile } from './read-file';
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

/**
 * Hands decoded blocks to a sink, checking that the stream keeps one format. `known`: the format an earlier delivery
 * from this decoder met (mpg123 announces it once), told to the sink at once.
 */
function createDelivery(decoder: Mpg123, sink: Mp3DecoderSink, known: Mp3Format | null = null) {
  let format: Mp3Format | null = known;
  if (known) sink.onFormat?.(known);
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

/** A complete MP3 in a decoder's memory: its exact length, and any spans of it, each decoded after a seek. */
export interface Mp3Image {
  /** Samples per channel of the whole file (after the gapless trim). */
  readonly length: number;
  /** Decodes one span into `sink`; returns the frames handed over. */
  decode(span: Mp3Span, sink: Mp3DecoderSink): number;
}

/** Scans the image the decoder holds (open) and wraps it as an Mp3Image. */
function scannedImage(decoder: Mpg123): Mp3Image {
  const length = decoder.length();
  if (length === 0) throw notMp3(false);
  let fresh = true;
  let format: Mp3Format | null = null;
  return {
    length,
    decode(span, sink) {
      if (!(span.start >= 0 && span.start <= length))
        throw new RangeError(`MP3 span starts at sample ${span.start}, after the end (${length}).`);
      const end = Math.min(span.end ?? length, length);
      // A first span from the start needs no seek; any other seeks (also one that follows the last span: the
      // decoder has read past the end of that).
      if (!(fresh && span.start === 0) && decoder.seek(span.start) !== span.start)
        throw new AudioDecodeError('corrupt', `MP3 decoder: cannot seek to sample ${span.start}.`);
      fresh = false;
      const delivery = createDelivery(decoder, sink, format);
      if (span.start < end) delivery.drain(end - span.start);
      format = delivery.format;
      if (delivery.frames === 0 && span.start < end) throw notMp3(false);
      return delivery.frames;
    },
  };
}

/**
 * A complete MP3 held in memory, opened for spans. mpg123 scans the frame headers first, so the length is exact and
 * a seek lands on the very sample (it decodes a few frames before it to refill the bit reservoir): the spans of one
 * file, decoded apart and put together, are the samples of decoding it whole (to float rounding at the seams).
 */
export function openMp3Memory(file: Uint8Array, options?: OpenOptions): Mp3Image {
  if (file.length === 0) throw notMp3(true);
  const decoder = createMpg123();
  decoder.openMemory(file, options);
  return scannedImage(decoder);
}

/** openMp3Memory for the file at `path`, read straight into the decoder's memory (no copy of it in JavaScript). */
export async function openMp3File(path: string, options?: OpenOptions): Promise<Mp3Image> {
  const handle = await openAudioFile(path);
  try {
    const size = (await handle.stat()).size;
    if (size === 0) throw notMp3(true);
    const decoder = createMpg123();
    // Nothing else runs in this decoder's memory while the reads fill it, so the view stays valid.
    const target = decoder.imageBuffer(size);
    for (let at = 0; at < size;) {
      const { bytesRead } = await handle.read(target, at, size - at, at);
      if (bytesRead === 0) throw new AudioDecodeError('corrupt', `${path} got shorter while it was read.`);
      at += bytesRead;
    }
    decoder.openImage(options);
    return scannedImage(decoder);
  } finally {
    await handle.close();
  }
}

/** Decodes one span of a complete MP3 held in memory (see openMp3Memory); `which` may be a function of its length. */
export function decodeMp3Span(
  file: Uint8Array,
  which: Mp3Span | ((length: number) => Mp3Span),
  sink: Mp3DecoderSink,
  options?: OpenOptions,
): Mp3SpanResult {
  const image = openMp3Memory(file, options);
  const span = typeof which === 'function' ? which(image.length) : which;
  return { frames: image.decode(span, sink), length: image.length };
}

/**
 * Part `index` of `count` near-equal parts of a stream of `length` samples, with seams on multiples of `align`
 * (so that peak buckets never straddle a seam).
 */
export function partSpan(length: number, index: number, count: number, align: number): Mp3Span {
  const seam = (k: number) => Math.min(length, Math.round((length * k) / count / align) * align);
  return { start: seam(index), end: index === count - 1 ? null : seam(index + 1) };
}
