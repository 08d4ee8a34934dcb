/**
 * The waveform of a version still streaming into the library: while the selected version has no library file,
 * main's peaks of its download under way, asked again every half second and handed to the player as they grow.
 */
import { shallowRef } from 'vue';
import type { ClientApi, LivePeaks } from '../../../../shared/ipc';
import type { ReviewState } from './state';

/** How often the waveform of a file still streaming into the library is redrawn. */
const LIVE_PEAKS_INTERVAL_MS = 500;

export function reviewLivePeaks(api: ClientApi, state: ReviewState) {
  /** Peaks of the selected version while it streams into the library (drawn as they arrive), else null. */
  const livePeaks = shallowRef<LivePeaks | null>(null);
  let livePeaksTimer: ReturnType<typeof setTimeout> | null = null;

  /**
   * While the selected version has no library file, asks main for the peaks of its download under way (background
   * fetch) and hands them to the player as they grow; stops when the file is in the library or another loads.
   */
  function followLivePeaks(version: number): void {
    stopLivePeaks();
    const id = state.deliverableId.value;
    const tick = async () => {
      livePeaksTimer = null;
      if (id !== state.deliverableId.value || version !== state.selectedVersion.value) return;
      try {
        const peaks = await api.downloads.livePeaks({ deliverableId: id!, version });
        if (id !== state.deliverableId.value || version !== state.selectedVersion.value) return;
        if (peaks) livePeaks.value = peaks;
      } catch {
        // Local and best effort: the flat line stays.
      }
      if (!state.current.value?.local) livePeaksTimer = setTimeout(() => void tick(), LIVE_PEAKS_INTERVAL_MS);
    };
    void tick();
  }
  function stopLivePeaks(): void {
    if (livePeaksTimer) clearTimeout(livePeaksTimer);
    livePeaksTimer = null;
    livePeaks.value = null;
  }

  return { livePeaks, followLivePeaks, stopLivePeaks };
}
