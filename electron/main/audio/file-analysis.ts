import { extname } from 'node:path';
import type { AudioAnalysis } from '../../../shared/audio/types';
import { qaVerdict, type DeliveryTargetId, type QaOptions, type QaVerdict } from '../../../shared/audio/qa';
import { AudioDecodeError } from './errors';
import { createLoudnessMeter, type LoudnessMeter } from '../../../shared/audio/loudness';
import { createMp3Decoder, openMp3File, partSpan, type Mp3Image } from './mp3';
import {
  createPeaksBuilder,
  DEFAULT_PEAK_LEVELS,
  writePeaksFile,
  type PeaksBuilder,
  type PeaksData,
  type RangeMinMax,
} from './peaks';
import { audioChunks, openAudioFile } from './read-file';
import { createWavDecoder } from './wav';

/** Container formats the analyser reads. */
export type AudioFileFormat = 'wav' | 'mp3';

/** Options of createStreamingAnalysis. */
export interface StreamingAnalysisOptions {
  format: AudioFileFormat;
  /** Build waveform peaks too (default false); zoom levels in samples per bucket. */
  peaks?: boolean | { levels: readonly number[] };
  /** Measure true peak (default true). */
  truePeak?: boolean;
}

/** What a finished streaming analysis yields. */
export interface StreamingAnalysisResult {
  analysis: AudioAnalysis;
  peaks: PeaksData | null;
}

/** The waveform so far of a stream being analysed: min/max of the channel mix per bucket, from one bucket on. */
export interface LiveEnvelope {
  sampleRate: number;
  samplesPerBucket: number;
  /** Frames decoded so far. */
  frames: number;
  /** The length the WAV header declares, in seconds; null for MP3 (estimated from the bytes instead). */
  declaredSeconds: number | null;
  /** Index of the first bucket in `minMax`. */
  from: number;
  /** min, max pairs of whole buckets from `from` on. */
  minMax: Float32Array;
}

/** Analysis fed chunk by chunk (e.g. while a download streams); chunks must arrive in file order. */
export interface StreamingAnalysis {
  write(chunk: Uint8Array): Promise<void>;
  finish(): Promise<StreamingAnalysisResult>;
  /** The peaks built so far from bucket `from` on; null before the format is known or without peaks. */
  envelope(from: number): LiveEnvelope | null;
}

/** Creates a one-pass analysis: decode, loudness meter and optional peaks share each decoded block. */
export function createStreamingAnalysis(options: StreamingAnalysisOptions): StreamingAnalysis {
  let meter: LoudnessMeter | null = null;
  let peaks: PeaksBuilder | null = null;
  let sampleRate = 0;
  let channels = 0;
  let declaredSeconds: number | null = null;
  const wantPeaks = options.peaks ?? false;

  const onFormat = (f: {
    sampleRate: number;
    channels: number;
    dataBytes?: number | null;
    blockAlign?: number;
  }): void => {
    sampleRate = f.sampleRate;
    channels = f.channels;
    if (f.dataBytes && f.blockAlign) declaredSeconds = f.dataBytes / f.blockAlign / f.sampleRate;
    meter = createLoudnessMeter({ sampleRate, channels, truePeak: options.truePeak ?? true });
    if (wantPeaks)
      peaks = createPeaksBuilder({
        sampleRate,
        channels,
        ...(wantPeaks === true ? {} : { levels: wantPeaks.levels }),
      });
  };
  const onData = (planar: Float32Array[], frames: number): void => {
    meter?.push(planar, frames);
    peaks?.push(planar, frames);
  };

  const build = (frames: number, bitDepth: number | null, codec: string): StreamingAnalysisResult => {
    if (!meter) throw new AudioDecodeError('corrupt', 'No audio format found in the stream.');
    const r = meter.result();
    return {
      analysis: {
        durationSeconds: frames / sampleRate,
        sampleRate,
        channels,
        bitDepth,
        codec,
        integratedLufs: r.integratedLufs,
        loudnessRangeLu: r.loudnessRangeLu,
        maxMomentaryLufs: r.maxMomentaryLufs,
        maxShortTermLufs: r.maxShortTermLufs,
        truePeakDbtp: r.truePeakDbtp,
        samplePeakDbfs: r.samplePeakDbfs,
      },
      peaks: (peaks as PeaksBuilder | null)?.result() ?? null,
    };
  };

  const envelope = (from: number): LiveEnvelope | null => {
    const built = (peaks as PeaksBuilder | null)?.since(from);
    return built ? { sampleRate, declaredSeconds, ...built } : null;
  };

  if (options.format === 'wav') {
    const wav = createWavDecoder({ onFormat, onData });
    return {
      envelope,
      write: async (chunk) => wav.write(chunk),
      finish: async () => {
        const frames = wav.end();
        const f = wav.format;
        if (!f) throw new AudioDecodeError('corrupt', 'No audio format found in the stream.');
        return build(frames, f.bitDepth, f.codec);
      },
    };
  }
  const mp3 = createMp3Decoder({ onFormat, onData });
  return {
    envelope,
    write: (chunk) => mp3.write(chunk),
    finish: async () => build(await mp3.end(), null, 'mp3'),
  };
}

/** Picks the container from the extension, else from the first bytes (RIFF/RF64, ID3 or an MPEG sync word). */
export function detectFormat(path: string, head: Uint8Array): AudioFileFormat {
  const ext = extname(path).toLowerCase();
  if (ext === '.wav' || ext === '.wave') return 'wav';
  if (ext === '.mp3') return 'mp3';
  const tag = String.fromCharCode(...head.subarray(0, 4));
  if (tag === 'RIFF' || tag === 'RF64') return 'wav';
  if (tag.startsWith('ID3') || (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0)) return 'mp3';
  throw new AudioDecodeError('unknown-format', `Unknown audio format: ${path} is neither WAV nor MP3.`);
}

/** detectFormat for the file at `path`: reads only its first four bytes. */
async function detectFileFormat(path: string): Promise<AudioFileFormat> {
  const head = new Uint8Array(4);
  const handle = await openAudioFile(path);
  try {
    await handle.read(head, 0, 4, 0);
  } finally {
    await handle.close();
  }
  return detectFormat(path, head);
}

/** Options of peaksFromFile. */
export interface PeaksFromFileOptions {
  /** Zoom levels in samples per bucket (default DEFAULT_PEAK_LEVELS). */
  levels?: readonly number[];
  /** Write `<path>.peaks`. */
  write?: boolean;
}

/** Builds waveform peaks only (no loudness), optionally writing `<path>.peaks`; one read of the file. */
export async function peaksFromFile(
  path: string,
  options: PeaksFromFileOptions = {},
): Promise<{ peaks: PeaksData; peaksPath: string | null }> {
  const format = await detectFileFormat(path);
  const levels = options.levels ?? DEFAULT_PEAK_LEVELS;
  let builder: PeaksBuilder | null = null;
  const sink = {
    onFormat: (f: { sampleRate: number; channels: number }): void => {
      builder = createPeaksBuilder({ ...f, levels });
    },
    onData: (planar: Float32Array[], frames: number, minMax?: RangeMinMax): void =>
      builder?.push(planar, frames, minMax),
  };
  if (format === 'wav') {
    const wav = createWavDecoder(sink);
    for await (const chunk of audioChunks(path, READ_CHUNK)) wav.write(chunk as Buffer);
    wav.end();
  } else {
    // Peaks are of the channel mix: mpg123 decodes the mix itself, at about half the cost (mpg123/README.md).
    const mp3 = createMp3Decoder(sink, { mix: true });
    for await (const chunk of audioChunks(path, READ_CHUNK)) await mp3.write(chunk as Buffer);
    await mp3.end();
  }
  const peaks = (builder as PeaksBuilder | null)?.result();
  if (!peaks) throw new AudioDecodeError('corrupt', 'No audio format found in the stream.');
  return { peaks, peaksPath: options.write ? await writePeaksFile(path, peaks) : null };
}

/** Options of mp3PeakParts. */
export interface Mp3PeakPartsOptions {
  /** Zoom levels in samples per bucket (default DEFAULT_PEAK_LEVELS). */
  levels?: readonly number[];
  /** Parts the file is cut into, near-equal, with seams on whole coarsest buckets (partSpan). */
  count: number;
  /**
   * Counter from which the threads building one file's peaks claim its parts one at a time (Atomics.add), so that
   * a thread that runs faster takes more of them: an Int32Array on a SharedArrayBuffer, starting at 0. Without it
   * this thread builds every part.
   */
  claim?: Int32Array;
}

/** The peaks of one part of an MP3 (see mp3PeakParts). */
export interface Mp3PeakPart {
  index: number;
  peaks: PeaksData;
}

/**
 * Builds the peaks of the parts of an MP3 that this thread claims, for concatPeaks to join in index order. The file
 * is read once, straight into the decoder's memory, and scanned once; each part is a seek (mpg123 lands on the very
 * sample). A thread that finds every part already claimed does not read the file at all.
 */
export async function mp3PeakParts(path: string, options: Mp3PeakPartsOptions): Promise<Mp3PeakPart[]> {
  const levels = options.levels ?? DEFAULT_PEAK_LEVELS;
  const coarsest = levels[levels.length - 1] ?? 1;
  const { count } = options;
  if (!(Number.isInteger(count) && count >= 1)) throw new RangeError('An MP3 is built in one part or more.');
  const claim = options.claim ?? new Int32Array(1);
  const parts: Mp3PeakPart[] = [];
  let image: Mp3Image | null = null;
  for (let index = Atomics.add(claim, 0, 1); index < count; index = Atomics.add(claim, 0, 1)) {
    // Read on the first part this thread wins: one that finds them all taken never reads the file.
    image ??= await openMp3File(path, { mix: true });
    let builder: PeaksBuilder | null = null;
    image.decode(partSpan(image.length, index, count, coarsest), {
      onFormat: (f) => (builder = createPeaksBuilder({ ...f, levels })),
      onData: (planar, frames, minMax) => builder?.push(planar, frames, minMax),
    });
    // An empty part (a file shorter than its parts' buckets) adds nothing.
    const peaks = (builder as PeaksBuilder | null)?.result();
    if (peaks && peaks.frames > 0) parts.push({ index, peaks });
  }
  return parts;
}

/** Options of analyzeFile. */
export interface AnalyzeFileOptions {
  /** Delivery target for a QA verdict. */
  target?: DeliveryTargetId;
  /** Ordered duration etc. for the verdict. */
  qa?: QaOptions;
  /** Write `<path>.peaks` beside the file. */
  writePeaks?: boolean;
  /** Measure true peak (default true). */
  truePeak?: boolean;
}

/** AudioAnalysis plus what analyzeFile was asked for. */
export interface FileAnalysis extends AudioAnalysis {
  verdict: QaVerdict | null;
  peaksPath: string | null;
}

const READ_CHUNK = 1 << 20;

/** Reads a WAV or MP3 once and returns its format facts, loudness figures and (optionally) verdict and peaks. */
export async function analyzeFile(path: string, options: AnalyzeFileOptions = {}): Promise<FileAnalysis> {
  const format = await detectFileFormat(path);
  const analysis = createStreamingAnalysis({
    format,
    peaks: options.writePeaks ?? false,
    truePeak: options.truePeak ?? true,
  });
  for await (const chunk of audioChunks(path, READ_CHUNK)) await analysis.write(chunk as Buffer);
  const { analysis: a, peaks } = await analysis.finish();
  const peaksPath = peaks ? await writePeaksFile(path, peaks) : null;
  return {
    ...a,
    verdict: options.target ? qaVerdict(a, options.target, options.qa) : null,
    peaksPath,
  };
}
