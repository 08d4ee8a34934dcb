/** The player's transport: play, pause, stop, seek, speed and zoom, on the wavesurfer instance of the moment. */
import { ref } from 'vue';
import { toError, ZOOM_MAX, type WaveformCore } from './model';
import type { WaveformLoop } from './loop';

export function waveformTransport(core: WaveformCore, loop: WaveformLoop) {
  const rate = ref(1);
  const zoom = ref(0);
  /** Where the last explicit seek (a marker, a key, Home/End) went, in seconds; null before any. */
  const lastSeek = ref<number | null>(null);

  async function play(): Promise<void> {
    try {
      await core.ws?.play();
    } catch (e) {
      core.error.value = toError(e);
    }
  }
  function pause(): void {
    core.ws?.pause();
  }
  async function playPause(): Promise<void> {
    if (core.playing.value) pause();
    else await play();
  }
  /** Pause and go back to the start of the loop (or the file), at normal speed. */
  function stop(): void {
    core.ws?.pause();
    setRate(1);
    seek(loop.loop.value && loop.loopRange.value ? loop.loopRange.value.start : 0);
  }
  function seek(time: number): void {
    const ws = core.ws;
    if (!ws) return;
    const d = ws.getDuration() || core.duration.value;
    const clamped = Math.max(0, d > 0 ? Math.min(time, d) : time);
    ws.setTime(clamped);
    core.currentTime.value = clamped;
    lastSeek.value = clamped;
  }
  function seekBy(seconds: number): void {
    seek((core.ws?.getCurrentTime() ?? core.currentTime.value) + seconds);
  }
  function setRate(value: number): void {
    rate.value = value;
    core.ws?.setPlaybackRate(value, true);
  }
  /** Pixels per second; 0 fits the whole file in view. */
  function setZoom(pxPerSec: number): void {
    zoom.value = Math.max(0, Math.min(ZOOM_MAX, pxPerSec));
    // wavesurfer throws when nothing is loaded yet; the 'ready' handler applies the stored level.
    if (core.ws && core.ready.value) core.ws.zoom(zoom.value);
  }

  return { rate, zoom, lastSeek, play, pause, playPause, stop, seek, seekBy, setRate, setZoom };
}
