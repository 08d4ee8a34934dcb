/**
 * The channel map both transports call through the router: each feature gives its part (its `handlers.ts`), merged
 * here so that a channel without a handler does not compile.
 */
import type { MediaRegistry } from '../media/media-registry';
import type { Handlers } from './ipc/router';
import { createAppHandlers, type AppHandlerDeps } from './app-handlers';
import { createCatalogHandlers } from '../catalog';
import { createDownloadsHandlers, type DownloadsHandlerDeps } from '../downloads';
import { createLibraryHandlers, type LibraryHandlerDeps } from '../library';
import { createLiveGuard } from '../profiles';
import { createMediaHandlers, rememberLinks } from '../media/handlers';
import { createProfilesHandlers, type ProfilesPort } from '../profiles';
import { createReviewHandlers, type ReviewHandlerDeps } from '../review';
import { createWatcherHandlers, type WatcherPort } from '../watcher';

export type { UpdatesPort } from './app-handlers';
export type { DesktopPort } from '../library';
export type { ProfilesPort } from '../profiles';
export type { OutboxPort } from '../review';
export { isUnreachable, MIRROR_AFTER_MS } from '../review';

/** Every service the handlers call: each feature's handlers take their part. */
export interface HandlerDeps
  extends
    AppHandlerDeps,
    DownloadsHandlerDeps,
    Omit<LibraryHandlerDeps, 'settings'>,
    Omit<ReviewHandlerDeps, 'watcher' | 'documentedOnly' | 'seen'> {
  profiles: ProfilesPort;
  media: MediaRegistry;
  watcher: WatcherPort;
}

/**
 * The handler map: each feature's part, merged. Most handlers are thin (validated input -> service call -> value);
 * service answers' media links are remembered, and a live account is never sent a sandbox-only value.
 */
export function createHandlers(deps: HandlerDeps): Handlers {
  const documentedOnly = createLiveGuard(deps.profiles);
  const seen = rememberLinks(deps.media);
  return {
    ...createAppHandlers(deps),
    ...createProfilesHandlers(deps.profiles),
    ...createCatalogHandlers({ profiles: deps.profiles, documentedOnly, seen }),
    ...createReviewHandlers({ ...deps, documentedOnly, seen }),
    ...createMediaHandlers(deps),
    ...createDownloadsHandlers(deps),
    ...createLibraryHandlers(deps),
    ...createWatcherHandlers(deps.watcher),
  } satisfies Handlers;
}
