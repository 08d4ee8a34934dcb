import { isAudioFormat, type DownloadJob, type LivePeaks } from '../../../shared/ipc';
import type { FollowedEnvelope } from './follow-threads';

/** Buckets handed to the renderer: enough for a full-width waveform, small for a poll answered twice a second. */
const OUT_BUCKETS = 2000;
const STREAMING: ReadonlySet<DownloadJob['state']> = new Set(['queued', 'downloading', 'verifying']);

/** One download's envelope as far as its follow thread has decoded it. */
interface Follower {
  sampleRate: number;
  samplesPerBucket: number;
  frames: number;
  bytes: number;
  declaredSeconds: number | null;
  /** min, max per bucket of the channel mix; `buckets` of them are filled. */
  minMax: Float32Array;
  buckets: number;
}

/**
 * Waveform peaks of a deliverable while the download engine streams it into the library: the download's follow
 * thread decodes the bytes as they land (for the checksum, loudness and the file's peaks) and hands over the buckets
 * it made since the last poll, so the review screen draws the waveform as it arrives instead of a flat line, and
 * nothing is read or decoded twice. The finished file's own peaks take over when it is complete.
 */
export function createLivePeaks(deps: {
  jobs(): Promise<DownloadJob[]>;
  /** The buckets a job's follow thread made from bucket `from` on (null: none follows it with analysis). */
  envelope(jobId: string, from: number): Promise<FollowedEnvelope | null>;
}) {
  const followers = new Map<string, Follower>();

  /** Appends an envelope's new buckets to what is known of that download. */
  function append(f: Follower, envelope: FollowedEnvelope): Follower {
    const added = envelope.minMax.length / 2;
    if (2 * (f.buckets + added) > f.minMax.length) {
      const grown = new Float32Array(Math.max(2 * (f.buckets + added), f.minMax.length * 2, 4096));
      grown.set(f.minMax.subarray(0, 2 * f.buckets));
      f.minMax = grown;
    }
    f.minMax.set(envelope.minMax, 2 * f.buckets);
    f.buckets += added;
    f.frames = envelope.frames;
    f.bytes = envelope.bytes;
    f.declaredSeconds = envelope.declaredSeconds;
    return f;
  }

  const fresh = (envelope: FollowedEnvelope): Follower => ({
    sampleRate: envelope.sampleRate,
    samplesPerBucket: envelope.samplesPerBucket,
    frames: 0,
    bytes: 0,
    declaredSeconds: null,
    minMax: new Float32Array(0),
    buckets: 0,
  });

  function payload(f: Follower, job: DownloadJob): LivePeaks | null {
    if (f.sampleRate === 0 || f.buckets === 0) return null;
    const received = f.frames / f.sampleRate;
    const duration =
      f.declaredSeconds ?? (job.total && f.bytes > 0 ? (received * job.total) / f.bytes : received);
    const totalBuckets = Math.max(f.buckets, Math.ceil((duration * f.sampleRate) / f.samplesPerBucket));
    const n = Math.min(OUT_BUCKETS, totalBuckets);
    const max = new Array<number>(n).fill(0);
    const min = new Array<number>(n).fill(0);
    for (let b = 0; b < f.buckets; b++) {
      const i = Math.min(n - 1, Math.floor((b * n) / totalBuckets));
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
      if (!job) return null;
      let f = followers.get(job.id);
      let envelope = await deps.envelope(job.id, f?.buckets ?? 0);
      // Another reader than last time (the part was cut back and is read anew): its buckets from the start.
      if (f && envelope && envelope.from !== f.buckets) {
        f = undefined;
        envelope = await deps.envelope(job.id, 0);
      }
      if (envelope) f = append(f ?? fresh(envelope), envelope);
      if (!f) return null;
      followers.set(job.id, f);
      return payload(f, job);
    },
  };
}
