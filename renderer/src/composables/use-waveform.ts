import { onScopeDispose, ref, shallowRef, watch, type Ref } from 'vue';
import WaveSurfer, { type WaveSurferOptions } from 'wavesurfer.js';
import RegionsPlugin, { type Region } from 'wavesurfer.js/dist/plugins/regions.js';
import TimelinePlugin from 'wavesurfer.js/dist/plugins/timeline.js';
import { dbToAmplitude } from '../../../shared/audio/match-gain';
import type { PeaksPayload } from '../../../shared/ipc';

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

// Drawn when no peaks exist yet: a flat line with the right duration, so seeking and looping still work.
const FLAT_PEAKS = [new Float32Array(2)];

/**
 * One wavesurfer.js instance bound to one <audio> element: created when the container mounts, destroyed (with
 * every `on` disposer flushed) when the owning scope ends. Audio is streamed by the element, never decoded whole
 * unless short and peak-less.
 */
export function useWaveform(options: UseWaveformOptions) {
  const ready = ref(false);
  const playing = ref(false);
  const currentTime = ref(0);
  /** Counts finished loads and A/B swaps: lets a caller (or a test) wait for a switch to land. */
  const settled = ref(0);
  const duration = ref(0);
  const rate = ref(1);
  const zoom = ref(0);
  const loop = ref(false);
  const loopRange = ref<LoopRange | null>(null);
  /** True while the drawing is the flat placeholder (no peaks, not decodable); live peaks draw over it. */
  const placeholder = ref(false);
  /** Counts redraws from live peaks (a file still streaming in). */
  const livePainted = ref(0);
  const error = shallowRef<Error | null>(null);
  /** Milliseconds from peaks arriving to the first drawn waveform, for the last load with peaks. */
  const firstPaintMs = ref<number | null>(null);
  /** Where the last explicit seek (a marker, a key, Home/End) went, in seconds; null before any. */
  const lastSeek = ref<number | null>(null);
  /** Share of the file the element has buffered (0..1): the progress shown while a preview starts. */
  const buffered = ref(0);
  /** Playback gain in dB applied to what is heard (Match loudness); null = none asked, the file as it is. */
  const gainDb = ref<number | null>(null);

  const media = (options.createMedia ?? defaultMedia)();
  let ws: WaveSurfer | null = null;
  let regions: RegionsPlugin | null = null;
  let loopRegion: Region | null = null;
  let markers: WaveformMarker[] = [];
  let markerRegions: Region[] = [];
  let disposers: Array<() => void> = [];
  let pending: WaveformSource | null = null;
  let pendingAutoplay = false;
  let paintStart: number | null = null;
  let loadToken = 0;
  // True while wavesurfer fetches a short file to draw it; its failure is not the producer's problem.
  let decoding = false;
  // Web Audio graph media -> gain -> speakers, made on the first gain asked for and kept (a media element can
  // feed one MediaElementSource in its life).
  let audio: { context: AudioContext; gain: GainNode } | null = null;
  const clickListeners = new Set<(time: number) => void>();

  function listen<K extends keyof HTMLMediaElementEventMap>(
    event: K,
    fn: (e: HTMLMediaElementEventMap[K]) => void,
  ) {
    media.addEventListener(event, fn);
    disposers.push(() => media.removeEventListener(event, fn));
  }

  function create(container: HTMLElement): void {
    const token = (name: string, fallback: string) => tokenColor(container, name) || fallback;
    const plugins = [];
    if (options.regions) {
      regions = (options.createRegions ?? (() => RegionsPlugin.create()))();
      plugins.push(regions);
    }
    if (options.timeline) {
      plugins.push(
        (
          options.createTimeline ?? (() => TimelinePlugin.create({ height: 16, secondaryLabelOpacity: 0.5 }))
        )(),
      );
    }
    const instance = (options.createWaveSurfer ?? WaveSurfer.create)({
      container,
      media,
      height: options.height ?? 96,
      waveColor: token('--wave', token('--text-faint', '#8a929e')),
      progressColor: token('--wave-progress', token('--accent', '#5b9dff')),
      cursorColor: token('--text', '#e7e9ed'),
      cursorWidth: 1,
      barWidth: 2,
      barGap: 1,
      barRadius: 1,
      normalize: false,
      dragToSeek: true,
      autoScroll: true,
      autoCenter: true,
      hideScrollbar: false,
      cspNonce: options.cspNonce,
      // An unplayable MIME type keeps wavesurfer from swapping the media src for a blob: URL after decoding:
      // the element keeps streaming the media URL (CSP media-src has no blob:).
      blobMimeType: 'application/x-takedesk-decode-only',
      plugins,
    });
    ws = instance;

    disposers.push(
      instance.on('play', () => (playing.value = true)),
      instance.on('pause', () => (playing.value = false)),
      instance.on('finish', () => (playing.value = false)),
      instance.on('timeupdate', (time) => onTime(time)),
      instance.on('ready', (d) => {
        duration.value = d;
        ready.value = true;
        // Markers placed before the file's length was known sit at 0:00 (the regions plugin clamps a start to
        // the length it knows); now that it is known, each goes where its time says.
        drawMarkers();
        markPainted();
        if (zoom.value > 0) instance.zoom(zoom.value);
      }),
      instance.on('redraw', () => markPainted()),
      instance.on('interaction', (time) => {
        for (const fn of clickListeners) fn(time);
      }),
      instance.on('error', (e) => {
        // Decode failures are expected when the media scheme isn't fetchable; the placeholder stays.
        if (!decoding) error.value = e;
      }),
    );
    listen('error', () => {
      if (media.getAttribute('src')) error.value = new Error(mediaErrorText(media.error));
    });
    listen('ratechange', () => (rate.value = media.playbackRate));
    listen('progress', () => (buffered.value = bufferedShare(media)));
    listen('loadstart', () => (buffered.value = 0));
    listen('durationchange', () => {
      if (Number.isFinite(media.duration) && media.duration > 0 && duration.value === 0)
        duration.value = media.duration;
    });

    if (regions) {
      const plugin = regions;
      disposers.push(
        plugin.enableDragSelection({ color: token('--loop-color', 'rgb(91 157 255 / 18%)') }),
        plugin.on('region-clicked', (region, event) => {
          if (!isMarker(region)) return;
          // The click is the marker's: it must not also reach the waveform (a seek, a timestamp in the note).
          event.stopPropagation();
          seek(region.start);
          void play();
        }),
        plugin.on('region-created', (region) => {
          if (isMarker(region)) return;
          // One loop at a time: a freshly dragged region replaces the old one and turns looping on.
          if (loopRegion && loopRegion !== region) loopRegion.remove();
          loopRegion = region;
          loop.value = true;
          loopRange.value = { start: region.start, end: region.end };
        }),
        plugin.on('region-updated', (region) => {
          if (isMarker(region)) return;
          if (region === loopRegion) loopRange.value = { start: region.start, end: region.end };
        }),
        plugin.on('region-removed', (region) => {
          if (isMarker(region) || region !== loopRegion) return;
          loopRegion = null;
          loopRange.value = null;
          loop.value = false;
        }),
      );
    }

    drawMarkers();
    if (pending) {
      const source = pending;
      pending = null;
      void load(source, { autoplay: pendingAutoplay });
    }
  }

  function onTime(time: number): void {
    currentTime.value = time;
    const range = loopRange.value;
    // Looping by position rather than region-out events: works the same with keyboard seeks and rate changes.
    if (loop.value && range && playing.value && time >= range.end - 0.01) ws?.setTime(range.start);
  }

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
    if (!ws) {
      pending = source;
      pendingAutoplay = loadOptions.autoplay ?? false;
      return;
    }
    const token = ++loadToken;
    error.value = null;
    ready.value = false;
    clearLoop();
    currentTime.value = 0;
    duration.value = 0;
    // A new src pauses the element without a 'pause' event: the new file is not playing until it plays (else a
    // list that switched from one playing sample to the next never hears that the next one started).
    playing.value = false;
    if (loadOptions.gainDb !== undefined) setGain(loadOptions.gainDb);
    await draw(source, absolute(source.url), token, loadOptions.autoplay ?? false);
    if (token === loadToken) settled.value++;
  }

  /**
   * A/B switch: plays `source` from the same position, keeping play state, rate, zoom and loop. The new src
   * carries a media fragment (#t=) so the element starts there and the cursor never jumps back to 0. `gainDb`
   * (Match loudness) changes with the media, just before playback resumes: the old take never plays at the new gain.
   */
  async function swap(source: WaveformSource, swapOptions: { gainDb?: number | null } = {}): Promise<void> {
    if (!ws || !media.getAttribute('src')) return load(source, swapOptions);
    const token = ++loadToken;
    const at = media.currentTime;
    const wasPlaying = !media.paused;
    const keepRate = media.playbackRate;
    error.value = null;
    await draw(source, withStart(absolute(source.url), at), token);
    if (token !== loadToken) return;
    if (Math.abs(media.currentTime - at) > 0.05) ws?.setTime(Math.min(at, media.duration || at));
    // The clock shows the kept position now, not after the element's next timeupdate.
    currentTime.value = media.currentTime;
    media.playbackRate = keepRate;
    if (swapOptions.gainDb !== undefined) setGain(swapOptions.gainDb);
    if (wasPlaying) await ws?.play().catch((e: unknown) => (error.value = toError(e)));
    if (token === loadToken) settled.value++;
  }

  async function draw(source: WaveformSource, url: string, token: number, autoplay = false): Promise<void> {
    const instance = ws;
    if (!instance) return;
    try {
      if (source.peaks && source.peaks.peaks.length > 0) {
        paintStart = source.peaksArrivedAt ?? performance.now();
        placeholder.value = false;
        await instance.load(url, source.peaks.peaks, source.peaks.duration);
        if (autoplay && token === loadToken) await play();
        return;
      }
      placeholder.value = true;
      // The placeholder load sets the media src and waits for its metadata, which tells us the duration.
      await instance.load(url, FLAT_PEAKS);
      if (token !== loadToken || ws !== instance) return;
      // Playback streams from the element: it starts now, while a short file is still fetched for drawing.
      if (autoplay) await play();
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
          if (token === loadToken && ws === instance)
            await instance.load(url, FLAT_PEAKS).catch(() => undefined);
        } finally {
          decoding = false;
        }
      }
    } catch (e) {
      if (token === loadToken) error.value = toError(e);
    }
  }

  /**
   * Redraws from peaks of a file still streaming in (they grow with each call), keeping the media, the playhead and
   * the play state: wavesurfer keeps the element's source when the URL is the same. Only over the placeholder.
   */
  async function drawLive(peaks: PeaksPayload): Promise<void> {
    const instance = ws;
    const src = media.currentSrc || media.src;
    if (!instance || !src || !placeholder.value || peaks.peaks.length === 0) return;
    const token = loadToken;
    try {
      await instance.load(src, peaks.peaks, peaks.duration);
      if (token === loadToken && ws === instance) livePainted.value++;
    } catch {
      // The next growth tries again; the flat line stays meanwhile.
    }
  }

  async function play(): Promise<void> {
    try {
      await ws?.play();
    } catch (e) {
      error.value = toError(e);
    }
  }
  function pause(): void {
    ws?.pause();
  }
  async function playPause(): Promise<void> {
    if (playing.value) pause();
    else await play();
  }
  /** Pause and go back to the start of the loop (or the file), at normal speed. */
  function stop(): void {
    ws?.pause();
    setRate(1);
    seek(loop.value && loopRange.value ? loopRange.value.start : 0);
  }
  function seek(time: number): void {
    if (!ws) return;
    const d = ws.getDuration() || duration.value;
    const clamped = Math.max(0, d > 0 ? Math.min(time, d) : time);
    ws.setTime(clamped);
    currentTime.value = clamped;
    lastSeek.value = clamped;
  }
  function seekBy(seconds: number): void {
    seek((ws?.getCurrentTime() ?? currentTime.value) + seconds);
  }
  function setRate(value: number): void {
    rate.value = value;
    ws?.setPlaybackRate(value, true);
  }
  /**
   * Playback gain in dB, null for none. The <audio> element's volume only cuts (it stops at 1), and Match loudness
   * must also boost a quiet take: so a GainNode on a MediaElementSource, made on the first gain asked for (0 dB
   * included: Match loudness is on). Until then the element plays straight to the speakers, as it always did.
   */
  function setGain(db: number | null): void {
    gainDb.value = db;
    if (!audio && db === null) return;
    const graph = audio ?? (audio = createGraph());
    if (!graph) return;
    graph.gain.gain.value = dbToAmplitude(db ?? 0);
    // Made outside a click (a version switch) the context may start suspended; resuming is harmless otherwise.
    if (graph.context.state === 'suspended') void graph.context.resume().catch(() => undefined);
  }
  function createGraph(): { context: AudioContext; gain: GainNode } | null {
    try {
      const context = (options.createAudioContext ?? (() => new AudioContext()))();
      const gain = context.createGain();
      context.createMediaElementSource(media).connect(gain);
      gain.connect(context.destination);
      return { context, gain };
    } catch (e) {
      // No Web Audio here: the take plays as it is, and the player says why.
      error.value = new Error(`Match loudness is not available here: ${toError(e).message}`);
      return null;
    }
  }

  /** Pixels per second; 0 fits the whole file in view. */
  function setZoom(pxPerSec: number): void {
    zoom.value = Math.max(0, Math.min(ZOOM_MAX, pxPerSec));
    // wavesurfer throws when nothing is loaded yet; the 'ready' handler applies the stored level.
    if (ws && ready.value) ws.zoom(zoom.value);
  }
  /** Loop on: around the playhead (5 s) unless a region was dragged; loop off removes the region. */
  function toggleLoop(): void {
    if (loop.value) {
      clearLoop();
      return;
    }
    const d = ws?.getDuration() || duration.value;
    if (d <= 0) return;
    const start = Math.min(currentTime.value, Math.max(0, d - 1));
    setLoop({ start, end: Math.min(d, start + 5) });
  }
  function setLoop(range: LoopRange): void {
    if (regions) {
      // region-created (below) records it and turns looping on.
      regions.addRegion({ start: range.start, end: range.end, drag: true, resize: true });
    } else {
      loopRange.value = range;
      loop.value = true;
    }
  }
  function clearLoop(): void {
    if (loopRegion) loopRegion.remove();
    loopRegion = null;
    loopRange.value = null;
    loop.value = false;
  }
  /** Shows `next` as markers on the waveform (replacing the previous ones); kept across loads. */
  function setMarkers(next: readonly WaveformMarker[]): void {
    markers = [...next];
    drawMarkers();
  }
  function drawMarkers(): void {
    for (const region of markerRegions) region.remove();
    markerRegions = [];
    const plugin = regions;
    // Before a file's length is known a region would be clamped to 0:00: the next `ready` draws them.
    if (!plugin || !(ws && ws.getDuration() > 0)) return;
    for (const marker of markers) {
      const color = marker.tone === 'draft' ? MARKER_COLORS.draft : MARKER_COLORS.earlier;
      markerRegions.push(
        plugin.addRegion({
          id: `${MARKER_PREFIX}${marker.id}`,
          start: marker.seconds,
          color,
          drag: false,
          resize: false,
          content: markerLabel(marker, color),
        }),
      );
    }
  }

  /** Called with the time of every click/drag-seek on the waveform; returns its disposer. */
  function onSeekClick(listener: (time: number) => void): () => void {
    clickListeners.add(listener);
    return () => clickListeners.delete(listener);
  }

  function destroy(): void {
    for (const dispose of disposers) dispose();
    disposers = [];
    clickListeners.clear();
    // Any load still awaiting metadata must not touch the next instance.
    loadToken++;
    ws?.destroy();
    ws = null;
    regions = null;
    loopRegion = null;
    markerRegions = [];
    // Drop the src so the element stops fetching (the proxied stream closes).
    media.pause();
    media.removeAttribute('src');
    media.load?.();
    void audio?.context.close().catch(() => undefined);
    audio = null;
    ready.value = false;
    playing.value = false;
  }

  watch(
    options.container,
    (el, previous) => {
      if (el && el !== previous) {
        if (ws) destroy();
        create(el);
      } else if (!el && ws) destroy();
    },
    { immediate: true, flush: 'post' },
  );
  onScopeDispose(destroy);

  return {
    ready,
    playing,
    currentTime,
    settled,
    duration,
    rate,
    zoom,
    loop,
    loopRange,
    placeholder,
    livePainted,
    error,
    firstPaintMs,
    buffered,
    lastSeek,
    gainDb,
    load,
    swap,
    drawLive,
    play,
    pause,
    playPause,
    stop,
    seek,
    seekBy,
    setRate,
    setGain,
    setZoom,
    toggleLoop,
    setLoop,
    clearLoop,
    onSeekClick,
    setMarkers,
    destroy,
    /** The wavesurfer instance, for a plugin a component adds itself; null before mount. */
    instance: () => ws,
  };
}

/** What `useWaveform` returns. */
export type Waveform = ReturnType<typeof useWaveform>;

// Custom properties reach into wavesurfer's shadow root, so markers follow the theme as it changes.
const MARKER_COLORS = {
  draft: 'var(--accent, #2f6fdd)',
  earlier: 'var(--warning, #9a6200)',
  surface: 'var(--surface, #ffffff)',
  text: 'var(--text, #1f2328)',
};

// Marker regions are told apart from the loop region by their id.
const MARKER_PREFIX = 'note-marker-';
function isMarker(region: Region): boolean {
  return region.id.startsWith(MARKER_PREFIX);
}

/** The marker's flag: solid colours so its text stays readable over the waveform (axe contrast). */
function markerLabel(marker: WaveformMarker, color: string): HTMLElement {
  const label = document.createElement('span');
  label.textContent = marker.label;
  label.title = marker.title ?? `Play from ${marker.label}`;
  label.dataset.testid = 'waveform-marker';
  label.dataset.markerId = marker.id;
  label.dataset.seconds = marker.seconds.toFixed(1);
  label.dataset.tone = marker.tone;
  Object.assign(label.style, {
    display: 'inline-block',
    padding: '1px 4px',
    font: '600 11px/1.3 system-ui, sans-serif',
    background: MARKER_COLORS.surface,
    color: MARKER_COLORS.text,
    borderLeft: `3px solid ${color}`,
    borderRadius: '0 3px 3px 0',
    cursor: 'pointer',
    whiteSpace: 'nowrap',
  });
  return label;
}

/**
 * The colour a token (`--accent`) has inside `container`, as `rgb(…)`, or '' when it is not set. Tokens are
 * `light-dark()` pairs that only CSS resolves (by color-scheme); a canvas would reject them as they are written.
 */
function tokenColor(container: HTMLElement, name: string): string {
  if (!getComputedStyle(container).getPropertyValue(name).trim()) return '';
  const probe = document.createElement('span');
  probe.style.color = `var(${name})`;
  container.append(probe);
  const color = getComputedStyle(probe).color;
  probe.remove();
  return color;
}

function bufferedShare(media: HTMLMediaElement): number {
  const d = media.duration;
  if (!Number.isFinite(d) || d <= 0 || !media.buffered || media.buffered.length === 0) return 0;
  return Math.min(1, media.buffered.end(media.buffered.length - 1) / d);
}

function defaultMedia(): HTMLMediaElement {
  const audio = document.createElement('audio');
  audio.preload = 'metadata';
  // CORS mode: Web Audio (Match loudness) hears a media-scheme stream only when it is fetched with CORS, which
  // the scheme answers for the app's page; same-origin in browser mode.
  audio.crossOrigin = 'anonymous';
  return audio;
}

function absolute(url: string): string {
  try {
    return new URL(url, document.baseURI).href;
  } catch {
    return url;
  }
}

/** Adds a media fragment start time (`#t=12.345`) unless the URL already has a fragment. */
export function withStart(url: string, seconds: number): string {
  if (url.includes('#') || !(seconds > 0)) return url;
  return `${url}#t=${seconds.toFixed(3)}`;
}

function toError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}

function mediaErrorText(err: MediaError | null): string {
  switch (err?.code) {
    case 2:
      return 'The audio stream was interrupted (network).';
    case 3:
      return 'The audio could not be decoded.';
    case 4:
      return 'The audio file is missing or in a format this player cannot play.';
    default:
      return 'The audio could not be played.';
  }
}
