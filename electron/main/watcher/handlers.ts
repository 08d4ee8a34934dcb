/** The watcher's part of the handler map: its status, a project's watch, a check now, the producer's attention. */
import type { ProjectListItem } from '../../../shared/api';
import type { HandlersIn } from '../kernel/handler-types';
import type { PokeTarget, Watcher } from './watcher';

/** What the handlers ask of the watcher. */
export type WatcherPort = Pick<Watcher, 'status' | 'attend' | 'project' | 'checkNow'> & {
  poke(target: PokeTarget): void;
  /** Projects the app listed: the watcher checks new ones in its budget's free slots. */
  observe(profileId: string, projects: readonly ProjectListItem[]): void;
};

export function createWatcherHandlers(watcher: WatcherPort): HandlersIn<'watcher'> {
  return {
    'watcher.status': () => watcher.status(),
    'watcher.project': ({ projectId }) => watcher.project(projectId),
    'watcher.checkNow': ({ projectId }) => watcher.checkNow(projectId),
    'watcher.attend': (attention) => {
      watcher.attend(attention);
      return null;
    },
  };
}
