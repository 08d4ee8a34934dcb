import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { PROJECT_LIMITS } from '../../../shared/api/validate-project';
import { createMasteredSource } from './mastering';
import { mp3Chunks, writeMp3File } from './mp3';
import { renderScriptPdf, type ScriptPart } from './pdf';
import {
  SAMPLE_RATE,
  createMusicSource,
  createPostMixSource,
  createVoiceSource,
  framesFor,
  voiceOverSeconds,
  type AudioSource,
} from './synth';
import { wavFileBytes, writeWavFile, type BitDepth } from './wav-writer';

/** What a media file is: a voice over, a post-production mix, a search sample, a library track, a script. */
export type MediaKind = 'voice' | 'post' | 'sample' | 'track' | 'script-pdf';
/** File format of a media file. */
export type MediaFormat = 'wav' | 'mp3' | 'pdf';

/** Everything that determines a media file's bytes; equal descriptors give equal files. */
export interface MediaDescriptor {
  kind: MediaKind;
  /** Any string; the audio is a pure function of it (e.g. `${deliverableId}:v2`). */
  seed: string;
  format: MediaFormat;
  /** Length; required for 'post', default 20 for 'sample' and 30 for 'track'; for 'voice' it overrides `words`. */
  seconds?: number | undefined;
  /** Voice over length from the word count at 150 wpm (plus head and tail). */
  words?: number | undefined;
  genderAndAge?: string | undefined;
  /** 1 or 2; default 1 for voice and sample, 2 for post and track. */
  channels?: number | undefined;
  /** Voice over script text (words are counted from it when `words` is absent) or the PDF body. */
  text?: string | undefined;
  /** PDF title. */
  title?: string | undefined;
  /** PDF project line. */
  project?: string | undefined;
  /** PDF parts; default one part named "Script" with `text`. */
  parts?: ScriptPart[] | undefined;
  /** Music mood (track subtype such as 'upbeat'). */
  style?: string | undefined;
  /** WAV sample width; default 24. */
  bitDepth?: BitDepth | undefined;
  /** MP3 bit rate; default 96 for samples, 128 otherwise. */
  kbps?: number | undefined;
  /** Integrated loudness (LUFS) a voice over or mix is mastered to; unmastered when absent. */
  lufs?: number | undefined;
}

/** A generated file, ready to serve. */
export interface MediaFile {
  key: string;
  path: string;
  size: number;
  /** Strong ETag, quoted: descriptor hash and size. */
  etag: string;
  contentType: string;
}

/** Thrown for a descriptor that cannot be generated (wrong format for the kind, bad numbers). */
export class MediaDescriptorError extends Error {
  override name = 'MediaDescriptorError';
}

/** The download benchmark's file: ten minutes of 48 kHz / 24-bit stereo WAV, 172 800 044 bytes. */
export const BENCH_MEDIA: MediaDescriptor = {
  kind: 'post',
  seed: 'bench',
  seconds: 600,
  channels: 2,
  format: 'wav',
};

const CONTENT_TYPES: Record<MediaFormat, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  pdf: 'application/pdf',
};
const KINDS: readonly MediaKind[] = ['voice', 'post', 'sample', 'track', 'script-pdf'];
// Sandbox limit: an hour is far past any deliverable and keeps a WAV under the RIFF 4 GiB cap. It is the
// create-project validator's bound, so nothing create accepts is refused here at delivery (README 19).
const MAX_SECONDS = PROJECT_LIMITS.maxSeconds;
const KEY_PATTERN = /^[0-9a-f]{32}$/;
// Bumped when generators change, so old files on disk are not served under new descriptors.
const GENERATOR_VERSION = 'media-v1';

function positive(value: number | undefined, what: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > max) {
    throw new MediaDescriptorError(`${what} must be a number in (0, ${max}]`);
  }
  return value;
}

function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** Checks a descriptor and fills its defaults; the result is what keys and generation use. */
export function normalizeDescriptor(desc: MediaDescriptor): MediaDescriptor {
  if (!KINDS.includes(desc.kind)) throw new MediaDescriptorError(`unknown media kind ${String(desc.kind)}`);
  if (typeof desc.seed !== 'string') throw new MediaDescriptorError('seed must be a string');
  const pdf = desc.kind === 'script-pdf';
  if (pdf ? desc.format !== 'pdf' : desc.format !== 'wav' && desc.format !== 'mp3') {
    throw new MediaDescriptorError(`${desc.kind} cannot be ${String(desc.format)}`);
  }
  if (pdf) {
    return {
      kind: desc.kind,
      seed: desc.seed,
      format: 'pdf',
      title: desc.title ?? 'Script',
      project: desc.project,
      parts: (desc.parts ?? [{ name: 'Script', text: desc.text ?? '' }]).map((p) => ({
        name: String(p.name),
        text: String(p.text),
      })),
    };
  }
  const channels = desc.channels ?? (desc.kind === 'voice' || desc.kind === 'sample' ? 1 : 2);
  if (channels !== 1 && channels !== 2) throw new MediaDescriptorError('channels must be 1 or 2');
  const words = desc.words ?? (desc.text !== undefined ? countWords(desc.text) : undefined);
  let seconds = positive(desc.seconds, 'seconds', MAX_SECONDS);
  if (desc.kind === 'voice' && seconds === undefined) {
    if (words === undefined || !Number.isFinite(words) || words < 0) {
      throw new MediaDescriptorError('voice needs seconds, words or text');
    }
    seconds = Math.min(MAX_SECONDS, voiceOverSeconds(words));
  }
  if (desc.kind === 'post' && seconds === undefined) throw new MediaDescriptorError('post needs seconds');
  seconds ??= desc.kind === 'sample' ? 20 : 30;
  const bitDepth = desc.bitDepth ?? 24;
  if (bitDepth !== 16 && bitDepth !== 24) throw new MediaDescriptorError('bitDepth must be 16 or 24');
  const out: MediaDescriptor = { kind: desc.kind, seed: desc.seed, format: desc.format, seconds, channels };
  if (desc.kind !== 'track') out.genderAndAge = desc.genderAndAge ?? 'youngAdultFemale';
  if (desc.kind === 'track' || desc.kind === 'post') out.style = desc.style;
  if (desc.lufs !== undefined && (desc.kind === 'voice' || desc.kind === 'post')) {
    if (typeof desc.lufs !== 'number' || !Number.isFinite(desc.lufs) || desc.lufs < -40 || desc.lufs > -6)
      throw new MediaDescriptorError('lufs must be a number in [-40, -6]');
    out.lufs = desc.lufs;
  }
  if (desc.format === 'wav') out.bitDepth = bitDepth;
  else out.kbps = positive(desc.kbps, 'kbps', 320) ?? (desc.kind === 'sample' ? 96 : 128);
  return out;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Stable key of a descriptor (hash of its normalized form); safe in URLs and file names. */
export function mediaKeyOf(desc: MediaDescriptor): string {
  return createHash('sha256')
    .update(`${GENERATOR_VERSION}\n${canonical(normalizeDescriptor(desc))}`)
    .digest('hex')
    .slice(0, 32);
}

/** The audio source a normalized audio descriptor stands for, mastered when it names a loudness. */
export function audioSourceFor(desc: MediaDescriptor): AudioSource {
  const d = normalizeDescriptor(desc);
  return d.lufs === undefined ? rawSourceFor(d) : createMasteredSource(() => rawSourceFor(d), d.lufs);
}

function rawSourceFor(d: MediaDescriptor): AudioSource {
  const seconds = d.seconds!;
  switch (d.kind) {
    case 'voice':
    case 'sample':
      return createVoiceSource({ seed: d.seed, seconds, genderAndAge: d.genderAndAge, channels: d.channels });
    case 'post':
      return createPostMixSource({
        seed: d.seed,
        seconds,
        genderAndAge: d.genderAndAge,
        channels: d.channels,
        style: d.style,
      });
    case 'track':
      return createMusicSource({ seed: d.seed, seconds, channels: d.channels, style: d.style });
    default:
      throw new MediaDescriptorError(`${d.kind} is not audio`);
  }
}

/** Size of the file a WAV descriptor yields, known before generating; undefined for mp3/pdf. */
export function expectedSize(desc: MediaDescriptor): number | undefined {
  const d = normalizeDescriptor(desc);
  if (d.format !== 'wav') return undefined;
  return wavFileBytes(framesFor(d.seconds!, SAMPLE_RATE), {
    sampleRate: SAMPLE_RATE,
    channels: d.channels!,
    bitDepth: d.bitDepth!,
  });
}

/** Generated media files in one directory, made on first request and kept. */
export interface MediaStore {
  readonly dir: string;
  /** Key for a descriptor, registered (in memory and on disk) so describe(key) works, even after a restart. */
  mediaKey(desc: MediaDescriptor): string;
  /** The normalized descriptor of a registered key, or undefined (also for malformed keys). */
  describe(key: string): MediaDescriptor | undefined;
  /** The file for a descriptor, generating it once; concurrent calls share one generation. */
  ensure(desc: MediaDescriptor): Promise<MediaFile>;
  /** ensure() for a registered key; undefined when the key is unknown. */
  ensureKey(key: string): Promise<MediaFile | undefined>;
  /**
   * A music track's mp3 asked for before it exists: its bytes as they are encoded, while the file is written
   * alongside, so a preview starts at once rather than after the whole file (30 s of music take seconds to make).
   * Undefined for other media, and when the file exists or is already being made: `ensure` then serves it whole.
   */
  streamFirst(desc: MediaDescriptor): Promise<ReadableStream<Uint8Array> | undefined>;
}

/** Options of the media store. */
export interface MediaStoreOptions {
  /** Directory of the files and of the `<key>.json` descriptor index; created if missing. */
  dir: string;
}

/** A first stream of a file whose listener left with nobody else wanting the file: its encoding stopped. */
class StreamAbandoned extends Error {
  constructor() {
    super('The stream was left before the file was finished.');
  }
}

/**
 * Media store over a directory. Files are written to a temporary name, fsynced and renamed, so
 * a file under its final name is always complete; a sidecar `<key>.json` per descriptor is the
 * on-disk index that lets a restarted sandbox serve URLs it handed out before.
 */
export function createMediaStore(opts: MediaStoreOptions): MediaStore {
  const dir = opts.dir;
  mkdirSync(dir, { recursive: true });
  const known = new Map<string, MediaDescriptor>();
  const inflight = new Map<string, Promise<MediaFile>>();
  /** Files being streamed that a request (`ensure`) also waits for: finished even when the listener leaves. */
  const wanted = new Set<string>();
  let tmpCounter = 0;

  const indexPath = (key: string): string => join(dir, `${key}.json`);
  const filePath = (key: string, format: MediaFormat): string => join(dir, `${key}.${format}`);

  function register(desc: MediaDescriptor): { key: string; desc: MediaDescriptor } {
    const normalized = normalizeDescriptor(desc);
    const key = mediaKeyOf(normalized);
    if (!known.has(key)) {
      known.set(key, normalized);
      if (!existsSync(indexPath(key))) writeFileAtomic.sync(indexPath(key), JSON.stringify(normalized));
    }
    return { key, desc: normalized };
  }

  function describe(key: string): MediaDescriptor | undefined {
    if (!KEY_PATTERN.test(key)) return undefined;
    const cached = known.get(key);
    if (cached) return cached;
    try {
      const desc = normalizeDescriptor(JSON.parse(readFileSync(indexPath(key), 'utf8')) as MediaDescriptor);
      // A hand-edited or stale index entry must not serve a different file under this key.
      if (mediaKeyOf(desc) !== key) return undefined;
      known.set(key, desc);
      return desc;
    } catch {
      return undefined;
    }
  }

  async function generate(key: string, desc: MediaDescriptor): Promise<MediaFile> {
    const target = filePath(key, desc.format);
    const expected = expectedSize(desc);
    const existing = await stat(target).catch(() => undefined);
    if (existing && (expected === undefined || existing.size === expected))
      return fileInfo(key, desc, existing.size, target);
    const tmp = `${target}.${process.pid}.${++tmpCounter}.tmp`;
    try {
      let size: number;
      if (desc.format === 'pdf') {
        const bytes = await renderScriptPdf({
          title: desc.title!,
          project: desc.project,
          parts: desc.parts!,
        });
        const fh = await open(tmp, 'w');
        try {
          await fh.writeFile(bytes);
          await fh.sync();
        } finally {
          await fh.close();
        }
        size = bytes.length;
      } else if (desc.format === 'wav') {
        size = await writeWavFile(tmp, audioSourceFor(desc), { bitDepth: desc.bitDepth });
      } else {
        size = await writeMp3File(tmp, audioSourceFor(desc), { kbps: desc.kbps });
      }
      await rename(tmp, target);
      await syncDir(dir);
      return fileInfo(key, desc, size, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async function ensure(desc: MediaDescriptor): Promise<MediaFile> {
    const { key, desc: normalized } = register(desc);
    const running = inflight.get(key);
    if (running) {
      // A file being streamed is now wanted whole: it is finished even if its listener leaves. One left just
      // before this asked for it is made again.
      wanted.add(key);
      return running.catch((error: unknown) =>
        error instanceof StreamAbandoned ? ensure(desc) : Promise.reject(error),
      );
    }
    const job = generate(key, normalized).finally(() => inflight.delete(key));
    inflight.set(key, job);
    return job;
  }

  async function streamFirst(desc: MediaDescriptor): Promise<ReadableStream<Uint8Array> | undefined> {
    const { key, desc: normalized } = register(desc);
    // Music tracks only: their preview is a plain <audio> that needs no length. A take or a sample is drawn on a
    // waveform, which needs the duration the Content-Length of the whole file gives.
    if (normalized.kind !== 'track' || normalized.format !== 'mp3' || inflight.has(key)) return undefined;
    const target = filePath(key, 'mp3');
    if (await stat(target).catch(() => undefined)) return undefined;
    // Another request may have started it while we looked.
    if (inflight.has(key)) return undefined;
    let listener: ReadableStreamDefaultController<Uint8Array> | null = null;
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => void (listener = controller),
      // The listener left (another track was played): the encoding stops unless a request wants the file, so
      // auditioning track after track does not leave each one encoding against the next; the next request of it
      // streams it again.
      cancel: () => void (listener = null),
    });
    const send = (act: (c: ReadableStreamDefaultController<Uint8Array>) => void) => {
      try {
        if (listener) act(listener);
      } catch {
        listener = null;
      }
    };
    const job = (async () => {
      const tmp = `${target}.${process.pid}.${++tmpCounter}.tmp`;
      const fh = await open(tmp, 'w');
      let size = 0;
      try {
        for (const chunk of mp3Chunks(audioSourceFor(normalized), { kbps: normalized.kbps })) {
          if (!listener && !wanted.has(key)) throw new StreamAbandoned();
          // Each write yields to the event loop: the chunk just sent reaches the socket while the next is encoded.
          await fh.write(chunk);
          size += chunk.length;
          send((c) => c.enqueue(chunk));
        }
        await fh.sync();
        await fh.close();
        await rename(tmp, target);
        await syncDir(dir);
      } catch (err) {
        await fh.close().catch(() => undefined);
        await rm(tmp, { force: true });
        send((c) => c.error(err));
        throw err;
      }
      send((c) => c.close());
      return fileInfo(key, normalized, size, target);
    })().finally(() => {
      inflight.delete(key);
      wanted.delete(key);
    });
    inflight.set(key, job);
    // Its failure is the stream's (and the next ensure's) to report.
    job.catch(() => undefined);
    return stream;
  }

  return {
    dir,
    streamFirst,
    mediaKey: (desc) => register(desc).key,
    describe,
    ensure,
    async ensureKey(key) {
      const desc = describe(key);
      return desc ? ensure(desc) : undefined;
    },
  };
}

function fileInfo(key: string, desc: MediaDescriptor, size: number, path: string): MediaFile {
  return {
    key,
    path,
    size,
    etag: `"${key}-${size}"`,
    contentType: CONTENT_TYPES[desc.format],
  };
}

/** Makes a rename durable; best effort where directories cannot be opened (Windows). */
async function syncDir(dir: string): Promise<void> {
  try {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // Directory fsync is unsupported on some platforms; the rename itself is still atomic.
  }
}
