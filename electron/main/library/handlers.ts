/**
 * The library's part of the handler map: the files on disk (list, remove, reveal, drag out, their peaks), their
 * analysis and QA, and each project's QA target.
 */
import type { Settings } from '../../../shared/ipc';
import type { HandlersIn } from '../kernel/handler-types';
import { inLibrary } from '../kernel/local-error';
import type { QaTargetsService } from './qa-targets';
import type { LibraryPort } from './library-service';

export interface DesktopPort {
  /** Shows a file in the OS file manager; browser mode answers with the path only. */
  reveal(path: string): void;
  /** Starts dragging a file out of the window that asked (`sender`: the caller's web contents); false if it cannot. */
  startDrag(path: string, sender: unknown): boolean;
}

export interface LibraryHandlerDeps {
  library: LibraryPort;
  desktop: DesktopPort;
  settings: { get(): Promise<Settings> };
  qaTargets: QaTargetsService;
}

export function createLibraryHandlers(deps: LibraryHandlerDeps): HandlersIn<'library' | 'audio' | 'qa'> {
  return {
    'library.list': (input) => deps.library.list(input?.projectId),
    'library.remove': ({ id }) => deps.library.remove(id),
    'library.reveal': async ({ id }) => {
      const path = inLibrary(await deps.library.pathOf(id));
      deps.desktop.reveal(path);
      return { path };
    },
    'library.startDrag': async ({ id }, ctx) => {
      const path = inLibrary(await deps.library.pathOf(id));
      return { started: ctx.transport === 'electron' && deps.desktop.startDrag(path, ctx.sender) };
    },
    'library.peaks': ({ id }) => deps.library.peaks(id),

    'audio.analyze': ({ id }) => deps.library.analyze(id),
    'audio.qa': async ({ id, target, orderedSeconds }) =>
      deps.library.qa(id, target ?? (await deps.settings.get()).deliveryTarget, orderedSeconds),

    'qa.targets': () => deps.qaTargets.list(),
    'qa.setTarget': ({ projectId, target, from }) => deps.qaTargets.set(projectId, { target, from }),
  };
}
