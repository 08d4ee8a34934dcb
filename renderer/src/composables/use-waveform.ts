import { onScopeDispose, ref, shallowRef, watch } from 'vue';
import { waveformGain } from './waveform/gain';
import { waveformLoader } from './waveform/loader';
import { waveformLoop } from './waveform/loop';
import { waveformMarkers, isMarker } from './waveform/markers';
import { bufferedShare, defaultMedia, mediaErrorText } from './waveform/media';
import type { UseWaveformOptions, WaveformCore } from './waveform/model';
import { createRenderer } from './waveform/renderer';
import { waveformTransport } from './waveform/transport';

export {
  DECODE_LIMIT_SECONDS,
  FIRST_PAINT_MARK,
  ZOOM_MAX,
  type LoopRange,
  type UseWaveformOptions,
  type WaveformMarker,
  type WaveformSource,
} from './waveform/model';
export { withStart } from './waveform/media';

/**
 * One wavesurfer.js instance bound to one <audio> element: created when the container mounts, destroyed (with
 * every `on` disposer flushed) when the owning scope ends. Audio is streamed by the element, never decoded whole
 * unless short and peak-less. A thin front, as wavesurfer.js is one over its player, renderer and decoder: the
 * units in `waveform/` (renderer, loader, transport, loop, markers, gain) share one core and are composed here.
 */
export function useWaveform(options: UseWaveformOptions) {
  const core: WaveformCore = {
    media: (options.createMedia ?? defaultMedia)(),
    ws: null,
    regions: null,
    ready: ref(false),
    playing: ref(false),
    currentTime: ref(0),
    duration: ref(0),
    error: shallowRef<Error | null>(null),
  };
  const { media } = core;
  /** Share of the file the element has buffered (0..1): the progress shown while a preview starts. */
  const buffered = ref(0);
  const gain = waveformGain(core, options.createAudioContext);
  const loop = waveformLoop(core);
  const transport = waveformTransport(core, loop);
  const markers = waveformMarkers(core);
  const loader = waveformLoader(core, {
    clearLoop: loop.clearLoop,
    setGain: gain.setGain,
    play: transport.play,
  });
  let disposers: Array<() => void> = [];
  const clickListeners = new Set<(time: number) => void>();

  function listen<K extends keyof HTMLMediaElementEventMap>(
    event: K,
    fn: (e: HTMLMediaElementEventMap[K]) => void,
  ) {
    media.addEventListener(event, fn);
    disposers.push(() => media.removeEventListener(event, fn));
  }

  function create(container: HTMLElement): void {
    const { instance, regions, token } = createRenderer(container, media, options);
    core.ws = instance;
    core.regions = regions;

    disposers.push(
      instance.on('play', () => (core.playing.value = true)),
      instance.on('pause', () => (core.playing.value = false)),
      instance.on('finish', () => (core.playing.value = false)),
      instance.on('timeupdate', (time) => {
        core.currentTime.value = time;
        loop.follow(time);
      }),
      instance.on('ready', (d) => {
        core.duration.value = d;
        core.ready.value = true;
        // Markers placed before the file's length was known sit at 0:00 (the regions plugin clamps a start to
        // the length it knows); now that it is known, each goes where its time says.
        markers.drawMarkers();
        loader.markPainted();
        if (transport.zoom.value > 0) instance.zoom(transport.zoom.value);
      }),
      instance.on('redraw', () => loader.markPainted()),
      instance.on('interaction', (time) => {
        for (const fn of clickListeners) fn(time);
      }),
      instance.on('error', (e) => {
        // Decode failures are expected when the media scheme isn't fetchable; the placeholder stays.
        if (!loader.decoding()) core.error.value = e;
      }),
    );
    listen('error', () => {
      if (media.getAttribute('src')) core.error.value = new Error(mediaErrorText(media.error));
    });
    listen('ratechange', () => (transport.rate.value = media.playbackRate));
    listen('progress', () => (buffered.value = bufferedShare(media)));
    listen('loadstart', () => (buffered.value = 0));
    listen('durationchange', () => {
      if (Number.isFinite(media.duration) && media.duration > 0 && core.duration.value === 0)
        core.duration.value = media.duration;
    });

    if (regions) {
      disposers.push(
        regions.enableDragSelection({ color: token('--loop-color', 'rgb(91 157 255 / 18%)') }),
        regions.on('region-clicked', (region, event) => {
          if (!isMarker(region)) return;
          // The click is the marker's: it must not also reach the waveform (a seek, a timestamp in the note).
          event.stopPropagation();
          transport.seek(region.start);
          void transport.play();
        }),
        ...loop.listenTo(regions),
      );
    }

    markers.drawMarkers();
    loader.loadPending();
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
    loader.invalidate();
    core.ws?.destroy();
    core.ws = null;
    core.regions = null;
    loop.forget();
    markers.forget();
    // Drop the src so the element stops fetching (the proxied stream closes).
    media.pause();
    media.removeAttribute('src');
    media.load?.();
    gain.close();
    core.ready.value = false;
    core.playing.value = false;
  }

  watch(
    options.container,
    (el, previous) => {
      if (el && el !== previous) {
        if (core.ws) destroy();
        create(el);
      } else if (!el && core.ws) destroy();
    },
    { immediate: true, flush: 'post' },
  );
  onScopeDispose(destroy);

  return {
    ready: core.ready,
    playing: core.playing,
    currentTime: core.currentTime,
    settled: loader.settled,
    duration: core.duration,
    rate: transport.rate,
    zoom: transport.zoom,
    loop: loop.loop,
    loopRange: loop.loopRange,
    placeholder: loader.placeholder,
    livePainted: loader.livePainted,
    error: core.error,
    firstPaintMs: loader.firstPaintMs,
    buffered,
    lastSeek: transport.lastSeek,
    gainDb: gain.gainDb,
    load: loader.load,
    swap: loader.swap,
    drawLive: loader.drawLive,
    play: transport.play,
    pause: transport.pause,
    playPause: transport.playPause,
    stop: transport.stop,
    seek: transport.seek,
    seekBy: transport.seekBy,
    setRate: transport.setRate,
    setGain: gain.setGain,
    setZoom: transport.setZoom,
    toggleLoop: loop.toggleLoop,
    setLoop: loop.setLoop,
    clearLoop: loop.clearLoop,
    onSeekClick,
    setMarkers: markers.setMarkers,
    destroy,
    /** The wavesurfer instance, for a plugin a component adds itself; null before mount. */
    instance: () => core.ws,
  };
}

/** What `useWaveform` returns. */
export type Waveform = ReturnType<typeof useWaveform>;
