/** The downloads' part of the handler map: the queue, and the waveform of a take while it streams in. */
import type { LivePeaks } from '../../../shared/ipc';
import type { HandlersIn } from '../kernel/handler-types';
import type { DownloadsPort } from './downloads-service';

export interface DownloadsHandlerDeps {
  downloads: DownloadsPort;
  /** Peaks of a deliverable's audio while it streams into the library. */
  livePeaks(deliverableId: string, version?: number): Promise<LivePeaks | null>;
}

export function createDownloadsHandlers(deps: DownloadsHandlerDeps): HandlersIn<'downloads'> {
  return {
    'downloads.start': (input) => deps.downloads.start(input),
    'downloads.startProject': (input) => deps.downloads.startProject(input),
    'downloads.list': () => deps.downloads.list(),
    'downloads.pause': ({ id }) => deps.downloads.pause(id),
    'downloads.resume': ({ id }) => deps.downloads.resume(id),
    'downloads.cancel': ({ id }) => deps.downloads.cancel(id),
    'downloads.livePeaks': ({ deliverableId, version }) => deps.livePeaks(deliverableId, version),
  };
}
