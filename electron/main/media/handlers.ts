/** The media part of the handler map: playable URLs for service links and library files. */
import type { HandlersIn } from '../kernel/handler-types';
import type { LibraryPort } from '../library';
import { inLibrary } from '../kernel/local-error';
import type { MediaRegistry } from './media-registry';

/** Passes a service answer on after remembering its media links, so they can be played. */
export const rememberLinks =
  (media: Pick<MediaRegistry, 'remember'>) =>
  <T>(value: T): T => {
    media.remember(value);
    return value;
  };

export function createMediaHandlers(deps: {
  media: MediaRegistry;
  library: Pick<LibraryPort, 'pathOf'>;
}): HandlersIn<'media'> {
  return {
    'media.remoteUrl': ({ url }) => deps.media.remoteUrl(url),
    'media.libraryUrl': async ({ id }) => {
      inLibrary(await deps.library.pathOf(id));
      return deps.media.libraryUrl(id);
    },
  };
}
