/**
 * What the waveform draws and plays: a new file drawn from its peaks, else a flat placeholder (or, for a short
 * file, wavesurfer's own decode), an A/B swap that keeps the position, and live peaks over the placeholder. The
 * latest load wins; the first paint from peaks is measured against its budget.
 */
import { ref } from 'vue';
import type { PeaksPayload } from '../../../../shared/ipc';
import { absolute, withStart } from './media';
import {
  DECODE_LIMIT_SECONDS,
  FIRST_PAINT_MARK,
  toError,
  type WaveformCore,
  type WaveformSource,
} from './model';

// Drawn when no peaks exist yet: a flat line with the right duration, so seeking and looping still work.
const FLAT_PEAKS = [new Float32Array(2)];

/** What a load changes besides the drawing: the loop it drops, the gain it sets, the playback it starts. */
export interface LoaderDeps {
  clearLoop: () => void;
  setGain: (db: number | null) => void;
  play: () => Promise<void>;
}

export function waveformLoader(core: WaveformCore, deps: LoaderDeps) {
  /** Counts finished loads and A/B swaps: lets a caller (or a test) wait for a switch to land. */
  const settled = ref(0);
  /** True while the drawing is the flat placeholder (no peaks, not decodable); live peaks draw over it. */
  const placeholder = ref(false);
  /** Counts redraws from live peaks (a file still streaming in). */
  const livePainted = ref(0);
  /** Milliseconds from peaks arriving to the first drawn waveform, for the last load with peaks. */
  const firstPaintMs = ref<number | null>(null);
  let pending: WaveformSource | null = null;
  let pendingAutoplay = false;
  let paintStart: number | null = null;
  let loadToken = 0;
  // True while wavesurfer fetches a short file to draw it; its failure is not the producer's problem.
  let decoding = false;

  function markPainted(): void {
    if (paintStart === null) return;
    const end = performance.now();
    firstPaintMs.value = end - paintStart;
    performance.mark(FIRST_PAINT_MARK, { startTime: end });
    performance.measure(FIRST_PAINT_MARK, { start: paintStart, end });
    paintStart = null;
  }

  /**
   * Loads a new file: drawing from peaks when present, the flat placeholder (or a short decode) otherwise.
   * `autoplay` starts playback as soon as the element can play (streaming), before a short file is decoded.
   */
  async function load(
    source: WaveformSource,
    loadOptions: { autoplay?: boolean; gainDb?: number | null } = {},
  ): Promise<void> {
    if (!core.ws) {
      pending = source;
      pendingAutoplay = loadOptions.autoplay ?? false;
      return;
    }
    const token = ++loadToken;
    core.error.value = null;
    core.ready.value = false;
    deps.clearLoop();
    core.currentTime.value = 0;
    core.duration.value = 0;
    // A new src pauses the element without a 'pause' event: the new file is not playing until it plays (else a
    // list that switched from one playing sample to the next never hears that the next one started).
    core.playing.value = false;
    if (loadOptions.gainDb !== undefined) deps.setGain(loadOptions.gainDb);
    await draw(source, absolute(source.url), token, loadOptions.autoplay ?? false);
    if (token === loadToken) settled.value++;
  }

  /**
   * A/B switch: plays `source` from the same position, keeping play state, rate, zoom and loop. The new src
   * carries a media fragment (#t=) so the element starts there and the cursor never jumps back to 0. `gainDb`
   * (Match loudness) changes with the media, just before playback resumes: the old take never plays at the new gain.
   */
  async function swap(source: WaveformSource, swapOptions: { gainDb?: number | null } = {}): Promise<void> {
    const media = core.media;
    if (!core.ws || !media.getAttribute('src')) return load(source, swapOptions);
    const token = ++loadToken;
    const at = media.currentTime;
    const wasPlaying = !media.paused;
    const keepRate = media.playbackRate;
    core.error.value = null;
    await draw(source, withStart(absolute(source.url), at), token);
    if (token !== loadToken) return;
    if (Math.abs(media.currentTime - at) > 0.05) core.ws?.setTime(Math.min(at, media.duration || at));
    // The clock shows the kept position now, not after the element's next timeupdate.
    core.currentTime.value = media.currentTime;
    media.playbackRate = keepRate;
    if (swapOptions.gainDb !== undefined) deps.setGain(swapOptions.gainDb);
    if (wasPlaying) await core.ws?.play().catch((e: unknown) => (core.error.value = toError(e)));
    if (token === loadToken) settled.value++;
  }

  async function draw(source: WaveformSource, url: string, token: number, autoplay = false): Promise<void> {
    const instance = core.ws;
    if (!instance) return;
    try {
      if (source.peaks && source.peaks.peaks.length > 0) {
        paintStart = source.peaksArrivedAt ?? performance.now();
        placeholder.value = false;
        await instance.load(url, source.peaks.peaks, source.peaks.duration);
        if (autoplay && token === loadToken) await deps.play();
        return;
      }
      placeholder.value = true;
      // The placeholder load sets the media src and waits for its metadata, which tells us the duration.
      await instance.load(url, FLAT_PEAKS);
      if (token !== loadToken || core.ws !== instance) return;
      // Playback streams from the element: it starts now, while a short file is still fetched for drawing.
      if (autoplay) await deps.play();
      if (
        source.decode === 'short' &&
        instance.getDuration() > 0 &&
        instance.getDuration() <= DECODE_LIMIT_SECONDS
      ) {
        decoding = true;
        try {
          await instance.load(url);
          if (token === loadToken) placeholder.value = false;
        } catch {
          // Not fetchable (e.g. the Electron media scheme is outside connect-src): keep the placeholder.
          if (token === loadToken && core.ws === instance)
            await instance.load(url, FLAT_PEAKS).catch(() => undefined);
        } finally {
          decoding = false;
        }
      }
    } catch (e) {
      if (token === loadToken) core.error.value = toError(e);
    }
  }

  /**
   * Redraws from peaks of a file still streaming in (they grow with each call), keeping the media, the playhead and
   * the play state: wavesurfer keeps the element's source when the URL is the same. Only over the placeholder.
   */
  async function drawLive(peaks: PeaksPayload): Promise<void> {
    const instance = core.ws;
    const src = core.media.currentSrc || core.media.src;
    if (!instance || !src || !placeholder.value || peaks.peaks.length === 0) return;
    const token = loadToken;
    try {
      await instance.load(src, peaks.peaks, peaks.duration);
      if (token === loadToken && core.ws === instance) livePainted.value++;
    } catch {
      // The next growth tries again; the flat line stays meanwhile.
    }
  }

  /** Loads what was asked before the instance existed, now that it does. */
  function loadPending(): void {
    if (!pending) return;
    const source = pending;
    pending = null;
    void load(source, { autoplay: pendingAutoplay });
  }

  return {
    settled,
    placeholder,
    livePainted,
    firstPaintMs,
    load,
    swap,
    drawLive,
    markPainted,
    loadPending,
    /** Whether wavesurfer is decoding a short file (its failure then leaves the placeholder, not an error). */
    decoding: () => decoding,
    /** Makes any load still awaiting metadata stale: it must not touch the next instance. */
    invalidate: () => void loadToken++,
  };
}
