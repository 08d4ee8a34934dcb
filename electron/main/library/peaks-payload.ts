import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { decodePeaks, toWavesurferPeaks } from '../../../shared/audio';
import type { PeaksPayload } from '../../../shared/ipc';

/** Enough buckets for a full-width waveform at any zoom the player offers, small enough for one IPC answer. */
const PEAK_BUCKETS = 8000;

/**
 * Reads a peaks file (an item's sidecar, see the library's `peaksPathOf`) and shapes it for wavesurfer.js as plain numbers (the HTTP transport speaks JSON). Null when
 * there is none, when a link stands at its name (never read through: it could lead out of the library) or when it
 * is damaged: the caller builds it again from the audio, and the new sidecar replaces whatever stood there.
 */
export async function readPeaks(peaksPath: string): Promise<PeaksPayload | null> {
  let bytes: Buffer;
  let decoded: ReturnType<typeof decodePeaks>;
  try {
    const handle = await open(peaksPath, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    try {
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
    decoded = decodePeaks(bytes);
  } catch {
    return null;
  }
  const { peaks, duration } = toWavesurferPeaks(decoded, PEAK_BUCKETS);
  return {
    duration,
    peaks: peaks.map((channel) => Array.from(channel, (v) => Math.round(v * 10_000) / 10_000)),
  };
}
