import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import { useApi } from '../bridge';
import { latestAnswer } from './support/latest-answer';
import type { WaveformSource } from '../composables/use-waveform';

/** What to audition in the shared player bar. */
export interface PlayRequest {
  title: string;
  subtitle?: string;
  /** A service URL (sample, track, deliverable): played through main's proxy (`media.remoteUrl`). */
  url?: string;
  /** A downloaded library file: played from disk (`media.libraryUrl`); wins over `url`. */
  libraryId?: string;
  /** Library id whose precomputed peaks to draw; defaults to `libraryId`. */
  peaksId?: string;
}

/** The shared player bar at the bottom of the app: one thing plays at a time, one after another. */
export const usePlayerStore = defineStore('player', () => {
  const api = useApi();
  /** What the bar shows; null hides the bar. */
  const track = ref<PlayRequest | null>(null);
  /** Resolved media for the bar's waveform; a new object per play() so the bar reloads. */
  const source = shallowRef<WaveformSource | null>(null);
  const loading = ref(false);
  const error = shallowRef<unknown>(null);
  /** Set by the bar from its waveform, so lists can show what is playing. */
  const playing = ref(false);
  /** From a play request until the sound starts (or fails): lists show a spinner on the item. */
  const starting = ref(false);
  /** Bumped by toggle(); the bar watches it and plays or pauses its waveform. */
  const toggleRequests = ref(0);
  const plays = latestAnswer();

  const key = computed(() => (track.value ? (track.value.libraryId ?? track.value.url ?? null) : null));

  /** Resolves the media URL (and peaks when a library id is known) and hands them to the bar, which plays. */
  async function play(request: PlayRequest): Promise<void> {
    const isLatest = plays.next();
    track.value = { ...request };
    source.value = null;
    error.value = null;
    loading.value = true;
    starting.value = true;
    try {
      if (!request.libraryId && !request.url) throw new Error('Nothing to play: no URL or library file.');
      const peaksId = request.peaksId ?? request.libraryId;
      const [media, peaks] = await Promise.all([
        request.libraryId
          ? api.media.libraryUrl({ id: request.libraryId })
          : api.media.remoteUrl({ url: request.url! }),
        // Peaks are a nicety: a failure leaves the placeholder, never stops playback.
        peaksId ? api.library.peaks({ id: peaksId }).catch(() => null) : Promise.resolve(null),
      ]);
      if (!isLatest()) return;
      source.value = { url: media.url, peaks, peaksArrivedAt: performance.now(), decode: 'short' };
    } catch (e) {
      if (isLatest()) {
        error.value = e;
        starting.value = false;
      }
    } finally {
      if (isLatest()) loading.value = false;
    }
  }

  /** Stops and hides the bar. */
  function stop(): void {
    plays.drop();
    track.value = null;
    source.value = null;
    error.value = null;
    loading.value = false;
    playing.value = false;
    starting.value = false;
  }

  /** True when `urlOrLibraryId` is what the bar holds (for "now playing" marks in lists). */
  function isCurrent(urlOrLibraryId: string): boolean {
    return key.value === urlOrLibraryId;
  }

  /** Play/pause what the bar holds (a list's play button pressed again on the current item). */
  function toggle(): void {
    if (track.value) toggleRequests.value++;
  }

  function setPlaying(value: boolean): void {
    playing.value = value;
    if (value) starting.value = false;
  }

  /** The bar's waveform could not play what it was given. */
  function setFailed(): void {
    starting.value = false;
  }

  return {
    track,
    source,
    loading,
    error,
    playing,
    starting,
    key,
    toggleRequests,
    play,
    stop,
    toggle,
    isCurrent,
    setPlaying,
    setFailed,
  };
});
