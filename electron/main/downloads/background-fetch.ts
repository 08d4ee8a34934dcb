/**
 * Background fetch: what the watcher announces as ready goes into the library at once (analysed as it streams),
 * so review, QA and playback do not wait and work offline. No request beyond the download's own.
 */
import type { DeliverableReadyEvent, Settings } from '../../../shared/ipc';
import type { EventBus } from '../kernel/events';
import type { DownloadsPort } from './downloads-service';

export interface BackgroundFetchDeps {
  events: EventBus;
  settings: { current(): Settings };
  /** Only the active profile's deliveries are fetched. */
  activeProfileId(): Promise<string>;
  downloads: Pick<DownloadsPort, 'start'>;
  log: (message: string, error?: unknown) => void;
}

/** Fetches each `deliverable.ready` of the bus; answers the function that stops it. */
export function startBackgroundFetch(deps: BackgroundFetchDeps): () => void {
  const { settings, activeProfileId, downloads } = deps;
  const fetchInBackground = async (ready: DeliverableReadyEvent) => {
    if (!settings.current().backgroundFetch) return;
    if ((await activeProfileId()) !== ready.profileId) return;
    const start = (format: 'wav' | 'mp3' | 'pdf' | 'txt') =>
      downloads.start({
        deliverableId: ready.deliverableId,
        format,
        projectId: ready.projectId,
      });
    if (ready.serviceSubCategory === 'scriptwriting') {
      await Promise.allSettled([start('pdf'), start('txt')]);
      return;
    }
    // WAV is what QA measures; a deliverable without one comes as MP3.
    await start('wav').catch((error: { type?: string }) => {
      if (error?.type === 'FORMAT_NOT_AVAILABLE') return start('mp3');
      throw error;
    });
  };
  return deps.events.attach((event, payload) => {
    if (event === 'deliverable.ready')
      void fetchInBackground(payload as DeliverableReadyEvent).catch((error: unknown) =>
        deps.log('background fetch failed', error),
      );
  });
}
