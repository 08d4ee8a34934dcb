/**
 * The media of the version in the player: the library file with its peaks, else the service's file streamed by
 * main; A/B between versions; the library read again when a download lands; and Match loudness's gain.
 */
import { computed, ref, shallowRef } from 'vue';
import { DELIVERY_TARGETS, matchGainDb } from '../../../../shared/audio';
import type { ClientApi } from '../../../../shared/ipc';
import type { WaveformSource } from '../../composables/use-waveform';
import { latestAnswer } from '../support/latest-answer';
import type { reviewLivePeaks } from './live-peaks';
import type { ReviewQa } from './qa';
import type { ReviewState } from './state';

export function reviewPlayback(
  api: ClientApi,
  state: ReviewState,
  qa: ReviewQa,
  live: ReturnType<typeof reviewLivePeaks>,
) {
  const source = shallowRef<WaveformSource | null>(null);
  /** The version whose media `source` is: the gain of Match loudness follows it, not the selection. */
  const sourceVersion = ref<number | null>(null);
  const sourceLoading = ref(false);
  const sourceError = shallowRef<unknown>(null);
  /** Latest answer wins: the media of the version picked last. */
  const sources = latestAnswer();

  /** Media for the selected version: the library file with its peaks, else the service file streamed by main. */
  async function resolveSource(): Promise<WaveformSource | null> {
    const isLatest = sources.next();
    const version = state.current.value;
    sourceError.value = null;
    if (!version) return null;
    sourceLoading.value = true;
    try {
      let next: WaveformSource;
      if (version.local) {
        const [media, peaks] = await Promise.all([
          api.media.libraryUrl({ id: version.local.id }),
          version.local.hasPeaks ? api.library.peaks({ id: version.local.id }).catch(() => null) : null,
        ]);
        next = { url: media.url, peaks, peaksArrivedAt: performance.now(), decode: 'never' };
      } else {
        // mp3 starts sooner over the proxy; QA waits for the downloaded (wav) file anyway.
        const remote = version.urls.mp3 ?? version.urls.wav;
        if (!remote) throw new Error('This version has no audio file.');
        const media = await api.media.remoteUrl({ url: remote });
        next = { url: media.url, peaks: null, decode: 'short' };
      }
      if (!isLatest()) return null;
      source.value = next;
      sourceVersion.value = version.number;
      if (version.local) live.stopLivePeaks();
      else live.followLivePeaks(version.number);
      void qa.loadQa();
      return next;
    } catch (e) {
      if (isLatest()) sourceError.value = e;
      return null;
    } finally {
      if (isLatest()) sourceLoading.value = false;
    }
  }

  /** The producer picked a version of this take (the selection is theirs from then on). */
  let picked = false;

  /** A/B: selects another version; the view swaps the player's media and keeps the playhead. */
  async function selectVersion(number: number): Promise<void> {
    picked = true;
    await showVersion(number);
  }

  /** Shows a version without it counting as the producer's pick (the newest, when the service lists one more). */
  async function showVersion(number: number): Promise<void> {
    if (number === state.selectedVersion.value && source.value) return;
    state.selectedVersion.value = number;
    qa.dropQa();
    await resolveSource();
  }

  /** Re-reads the library (after a download finished) and switches to the local file when one appeared. */
  async function refreshLibrary(): Promise<void> {
    const id = state.deliverableId.value;
    if (!id) return;
    try {
      const before = state.current.value?.local?.id ?? null;
      const project = state.project.value;
      const items = await api.library.list(project ? { projectId: project.id } : undefined);
      if (id !== state.deliverableId.value) return;
      state.library.value = items.filter((i) => i.deliverableId === id);
      if ((state.current.value?.local?.id ?? null) !== before && state.isAudio.value) await resolveSource();
    } catch {
      // Keep what we have; the library screen shows library errors.
    }
  }

  /** Fair A/B: every take plays at the QA target's loudness (kept while the app runs, across takes). */
  const matchLoudness = ref(false);
  const matchTargetLufs = computed(() => DELIVERY_TARGETS[qa.qaTarget.value].integratedLufs);
  /**
   * Gain that brings the take in the player to `matchTargetLufs`, from our own meter's integrated loudness (the
   * library's figure, else the one measured here); null until the take is downloaded and measured. It follows the
   * source, not the selection, so it changes together with the media on an A/B switch.
   */
  const matchGain = computed(() => {
    const playing = state.versions.value.find((v) => v.number === sourceVersion.value);
    if (!playing) return null;
    const measured = playing.local?.analysis?.integratedLufs ?? qa.measuredLufs.value[playing.number];
    return matchGainDb(measured, matchTargetLufs.value);
  });

  /** Forgets the media of the deliverable shown before. */
  function reset(): void {
    picked = false;
    source.value = null;
    sourceVersion.value = null;
    sourceError.value = null;
  }

  return {
    source,
    sourceVersion,
    sourceLoading,
    sourceError,
    matchLoudness,
    matchTargetLufs,
    matchGain,
    resolveSource,
    selectVersion,
    showVersion,
    picked: () => picked,
    refreshLibrary,
    reset,
  };
}
