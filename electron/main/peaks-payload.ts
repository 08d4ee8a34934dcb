import { readFile } from 'node:fs/promises';
import { decodePeaks, toWavesurferPeaks } from '../../shared/audio';
import type { PeaksPayload } from '../../shared/ipc';

/** Enough buckets for a full-width waveform at any zoom the player offers, small enough for one IPC answer. */
const PEAK_BUCKETS = 8000;

/** Reads `<file>.peaks` and shapes it for wavesurfer.js as plain numbers (the HTTP transport speaks JSON). */
export async function readPeaks(path: string): Promise<PeaksPayload | null> {
  let bytes: Buffer;
  try {
    bytes = await readFile(`${path}.peaks`);
  } catch {
    return null;
  }
  const { peaks, duration } = toWavesurferPeaks(decodePeaks(bytes), PEAK_BUCKETS);
  return {
    duration,
    peaks: peaks.map((channel) => Array.from(channel, (v) => Math.round(v * 10_000) / 10_000)),
  };
}
