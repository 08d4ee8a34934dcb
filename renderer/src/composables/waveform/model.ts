/**
 * The waveform's shapes (what to play, a loop, a note marker, the composable's options), its limits, and the core
 * every waveform unit shares: the <audio> element, the wavesurfer instance of the moment and the state they report.
 */
import type { Ref, ShallowRef } from 'vue';
import type WaveSurfer from 'wavesurfer.js';
import type { WaveSurferOptions } from 'wavesurfer.js';
import type RegionsPlugin from 'wavesurfer.js/dist/plugins/regions.js';
import type TimelinePlugin from 'wavesurfer.js/dist/plugins/timeline.js';
import type { PeaksPayload } from '../../../../shared/ipc';

/** What to play and draw. */
export interface WaveformSource {
  /** Media URL from main (`media.remoteUrl` / `media.libraryUrl`); streamed by the <audio> element. */
  url: string;
  /** Precomputed peaks (`library.peaks`); without them a flat placeholder is drawn. */
  peaks?: PeaksPayload | null;
  /** `performance.now()` when the peaks arrived, the start of the first-paint budget. */
  peaksArrivedAt?: number;
  /**
   * Without peaks, may wavesurfer fetch and decode the file to draw it? `short` = only when it lasts at most
   * DECODE_LIMIT_SECONDS (samples); long files are never decoded in the renderer.
   */
  decode?: 'never' | 'short';
}

/** Loop region in seconds. */
export interface LoopRange {
  start: number;
  end: number;
}

/** A point on the waveform a note refers to (`[0:02.1]`); clicking it plays from there. */
export interface WaveformMarker {
  /** Stable key, e.g. `v1-0` for the first marker of version 1's instructions. */
  id: string;
  seconds: number;
  /** Short text on the marker, e.g. `0:02.1` or `v1 0:02.1`. */
  label: string;
  /** The note being written, or the instructions of an earlier version. */
  tone: 'draft' | 'earlier';
  /** The note the marker comes from, shown on hover. */
  title?: string;
}

/** Collaborators and look of one waveform. */
export interface UseWaveformOptions {
  /** Element the waveform is drawn into; the instance is created when it exists and destroyed with the scope. */
  container: Ref<HTMLElement | null>;
  height?: number;
  /** Draw a time ruler under the waveform. */
  timeline?: boolean;
  /** Enable the loop region (drag on the waveform to set one) and note markers. */
  regions?: boolean;
  /** CSP nonce for wavesurfer's shadow-DOM <style>; the bridge reads it from the meta tag. */
  cspNonce?: string | undefined;
  /** Injected for tests; default `WaveSurfer.create`. */
  createWaveSurfer?: (options: WaveSurferOptions) => WaveSurfer;
  /** Injected for tests; default a fresh <audio preload="metadata">. */
  createMedia?: () => HTMLMediaElement;
  /** Injected for tests; default `RegionsPlugin.create()`. */
  createRegions?: () => RegionsPlugin;
  /** Injected for tests; default `TimelinePlugin.create(...)`. */
  createTimeline?: () => TimelinePlugin;
  /** Injected for tests; default `new AudioContext()`, made on the first gain other than 0 dB. */
  createAudioContext?: () => AudioContext;
}

/** Longest file wavesurfer may fetch and decode itself when no peaks exist (issue 6: samples only). */
export const DECODE_LIMIT_SECONDS = 60;
/** Name of the performance mark and measure for the < 150 ms first-paint budget (issue 6, item 10). */
export const FIRST_PAINT_MARK = 'waveform-first-paint';
/** Zoom range of the slider, in pixels per second; 0 fits the whole file. */
export const ZOOM_MAX = 400;

/**
 * What the waveform units share: the one <audio> element, the wavesurfer instance and its regions plugin while
 * the container is mounted (null otherwise), and the state every unit reads or reports.
 */
export interface WaveformCore {
  readonly media: HTMLMediaElement;
  ws: WaveSurfer | null;
  regions: RegionsPlugin | null;
  readonly ready: Ref<boolean>;
  readonly playing: Ref<boolean>;
  readonly currentTime: Ref<number>;
  readonly duration: Ref<number>;
  readonly error: ShallowRef<Error | null>;
}

export function toError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}
