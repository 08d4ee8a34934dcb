/**
 * The loop: one region dragged on the waveform (or set around the playhead), looped by position as time passes, so
 * keyboard seeks and rate changes loop the same. Without the regions plugin, a range without a drawn region.
 */
import { ref } from 'vue';
import type RegionsPlugin from 'wavesurfer.js/dist/plugins/regions.js';
import type { Region } from 'wavesurfer.js/dist/plugins/regions.js';
import { isMarker } from './markers';
import type { LoopRange, WaveformCore } from './model';

export function waveformLoop(core: WaveformCore) {
  const loop = ref(false);
  const loopRange = ref<LoopRange | null>(null);
  let loopRegion: Region | null = null;

  /** The playhead moved: back to the loop's start once it reaches the loop's end. */
  function follow(time: number): void {
    const range = loopRange.value;
    // Looping by position rather than region-out events: works the same with keyboard seeks and rate changes.
    if (loop.value && range && core.playing.value && time >= range.end - 0.01) core.ws?.setTime(range.start);
  }

  /** Loop on: around the playhead (5 s) unless a region was dragged; loop off removes the region. */
  function toggleLoop(): void {
    if (loop.value) {
      clearLoop();
      return;
    }
    const d = core.ws?.getDuration() || core.duration.value;
    if (d <= 0) return;
    const start = Math.min(core.currentTime.value, Math.max(0, d - 1));
    setLoop({ start, end: Math.min(d, start + 5) });
  }
  function setLoop(range: LoopRange): void {
    if (core.regions) {
      // region-created (below) records it and turns looping on.
      core.regions.addRegion({ start: range.start, end: range.end, drag: true, resize: true });
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

  /** Follows the loop region the producer drags, moves or removes on `plugin`; returns the disposers. */
  function listenTo(plugin: RegionsPlugin): Array<() => void> {
    return [
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
    ];
  }

  /** Forgets the region of a destroyed instance (it went with it). */
  function forget(): void {
    loopRegion = null;
  }

  return { loop, loopRange, follow, toggleLoop, setLoop, clearLoop, listenTo, forget };
}

export type WaveformLoop = ReturnType<typeof waveformLoop>;
