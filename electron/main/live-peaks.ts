import { open, stat } from 'node:fs/promises';
import { isAudioFormat, type DownloadJob, type LivePeaks } from '../../shared/ipc';
import { createMp3Decoder } from './audio/mp3';
import { createWavDecoder } from './audio/wav';
import { partPathFor } from './library/sanitize';

/** Envelope resolution kept while a file streams in: 20 buckets a second. */
const FINE_PER_SECOND = 20;
/** Buckets handed to the renderer: enough for a full-width waveform, small for a poll answered twice a second. */
const OUT_BUCKETS = 2000;
/** Bytes read from the part per call, so one poll never holds main's thread for long (~30 ms of WAV decoding). */
const MAX_READ_PER_CALL = 16 << 20;
const STREAMING: ReadonlySet<DownloadJob['state']> = new Set(['queued', 'downloading', 'verifying']);

/** One download's envelope, built from its `.part` file as it grows. */
interface Follower {
  offset: number;
  sampleRate: number;
  frames: number;
  /** min,max per fine bucket of the channel mix. */
  minMax: number[];
  /** The duration the header declares (WAV); null for MP3, estimated from the bytes instead. */
  declaredSeconds: number | null;
  write(chunk: Uint8Array): Promise<void>;
  failed: boolean;
}

/**
 * Waveform peaks of a deliverable while the download engine streams it into the library: the part file written so
 * far is read (behind the writer, from where the last poll stopped) and decoded into a coarse envelope, so the review
 * screen draws the waveform as it arrives instead of a flat line. The engine's own analysis gives the full peaks
 * when the file is complete.
 */
export function createLivePeaks(deps: {
  jobs(): Promise<DownloadJob[]>;
  /** Absolute path of a library-relative path (inside the library). */
  resolve(relativePath: string): string;
}) {
  const followers = new Map<string, Follower>();

  function follower(format: 'wav' | 'mp3'): Follower {
    const f: Follower = {
      offset: 0,
      sampleRate: 0,
      frames: 0,
      minMax: [],
      declaredSeconds: null,
      failed: false,
      write: async () => undefined,
    };
    let bucketFrames = 0;
    let inBucket = 0;
    let lo = Infinity;
    let hi = -Infinity;
    const onFormat = (format: { sampleRate: number; dataBytes?: number | null; blockAlign?: number }) => {
      f.sampleRate = format.sampleRate;
      bucketFrames = Math.max(1, Math.round(format.sampleRate / FINE_PER_SECOND));
      if (format.dataBytes && format.blockAlign)
        f.declaredSeconds = format.dataBytes / format.blockAlign / format.sampleRate;
    };
    const onData = (planar: Float32Array[], frames: number) => {
      const channels = planar.length;
      for (let i = 0; i < frames; i++) {
        let sum = 0;
        for (let c = 0; c < channels; c++) sum += planar[c]![i]!;
        const v = sum / channels;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
        if (++inBucket === bucketFrames) {
          f.minMax.push(lo, hi);
          inBucket = 0;
          lo = Infinity;
          hi = -Infinity;
        }
      }
      f.frames += frames;
    };
    if (format === 'wav') {
      const wav = createWavDecoder({ onFormat, onData });
      f.write = async (chunk) => wav.write(chunk);
    } else {
      const mp3 = createMp3Decoder({ onFormat, onData });
      f.write = (chunk) => mp3.write(chunk);
    }
    return f;
  }

  /** Reads what was written since the last call (at most MAX_READ_PER_CALL bytes). */
  async function advance(f: Follower, path: string): Promise<void> {
    const size = await stat(path).then(
      (s) => s.size,
      () => 0,
    );
    if (size <= f.offset) return;
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.allocUnsafe(Math.min(size - f.offset, MAX_READ_PER_CALL));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, f.offset);
      f.offset += bytesRead;
      await f.write(buffer.subarray(0, bytesRead));
    } finally {
      await handle.close();
    }
  }

  function payload(f: Follower, job: DownloadJob): LivePeaks | null {
    if (f.sampleRate === 0 || f.minMax.length === 0) return null;
    const received = f.frames / f.sampleRate;
    const duration =
      f.declaredSeconds ?? (job.total && f.offset > 0 ? (received * job.total) / f.offset : received);
    const fine = f.minMax.length / 2;
    const totalFine = Math.max(fine, Math.ceil(duration * FINE_PER_SECOND));
    const n = Math.min(OUT_BUCKETS, totalFine);
    const max = new Array<number>(n).fill(0);
    const min = new Array<number>(n).fill(0);
    for (let b = 0; b < fine; b++) {
      const i = Math.min(n - 1, Math.floor((b * n) / totalFine));
      min[i] = Math.min(min[i]!, f.minMax[2 * b]!);
      max[i] = Math.max(max[i]!, f.minMax[2 * b + 1]!);
    }
    const round = (v: number) => Math.round(v * 10_000) / 10_000;
    return { duration, received, peaks: [max.map(round), min.map(round)] };
  }

  return {
    async peaks(deliverableId: string, version?: number): Promise<LivePeaks | null> {
      const jobs = await deps.jobs();
      const live = new Set(jobs.filter((j) => STREAMING.has(j.state)).map((j) => j.id));
      for (const id of followers.keys()) if (!live.has(id)) followers.delete(id);
      const job = jobs
        .filter(
          (j) =>
            j.deliverableId === deliverableId &&
            isAudioFormat(j.format) &&
            live.has(j.id) &&
            (version === undefined || j.version === version),
        )
        // The one with bytes on disk first; WAV (what QA reads) over MP3.
        .sort((a, b) => Number(b.bytes > 0) - Number(a.bytes > 0) || (a.format === 'wav' ? -1 : 1))[0];
      if (!job || !isAudioFormat(job.format)) return null;
      let f = followers.get(job.id);
      if (!f) followers.set(job.id, (f = follower(job.format)));
      if (!f.failed) {
        try {
          await advance(f, deps.resolve(partPathFor(job.relativePath, job.id)));
        } catch {
          // Undecodable so far (or the part moved to its final name): the finished file's own peaks follow.
          f.failed = true;
        }
      }
      return payload(f, job);
    },
  };
}
