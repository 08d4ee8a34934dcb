/**
 * Every IPC channel, as `namespace.method`. The preload allowlists exactly these; nothing else is callable.
 * The names live here, apart from their schemas, so the sandboxed preload bundles no zod; contract.ts is keyed by
 * this list and does not compile with a name missing or extra (likewise EventPayloads for EVENTS).
 */
export const CHANNELS = [
  'app.info',
  'app.notices',
  'profiles.list',
  'profiles.add',
  'profiles.signIn',
  'profiles.renew',
  'profiles.activate',
  'profiles.remove',
  'sandbox.restart',
  'catalog.categories',
  'catalog.attributes',
  'catalog.attributeValues',
  'catalog.tracks',
  'projects.list',
  'projects.get',
  'projects.create',
  'projects.quote',
  'projects.cancel',
  'projects.findRecent',
  'projects.review',
  'projects.nextReady',
  'deliverables.list',
  'deliverables.get',
  'deliverables.approve',
  'deliverables.approveAll',
  'deliverables.reject',
  'deliverables.selectWinner',
  'revisions.create',
  'revisions.versions',
  'samples.search',
  'media.remoteUrl',
  'media.libraryUrl',
  'downloads.start',
  'downloads.startProject',
  'downloads.list',
  'downloads.pause',
  'downloads.resume',
  'downloads.cancel',
  'downloads.livePeaks',
  'library.list',
  'library.remove',
  'library.reveal',
  'library.startDrag',
  'library.peaks',
  'settings.get',
  'settings.set',
  'audio.analyze',
  'audio.qa',
  'qa.targets',
  'qa.setTarget',
  'watcher.status',
  'watcher.project',
  'watcher.checkNow',
  'watcher.attend',
  'updates.status',
  'updates.check',
  'updates.install',
  'outbox.list',
  'outbox.discard',
  'outbox.retry',
  'outbox.send',
  'outbox.pending',
] as const;

export type Channel = (typeof CHANNELS)[number];

/** Events main pushes to the renderer. */
export const EVENTS = [
  'downloads.progress',
  'downloads.changed',
  'library.changed',
  'deliverable.ready',
  'profile.changed',
  'watcher.status',
  'menu.command',
  'app.navigate',
  'updates.status',
  'projects.reviewChanged',
  'outbox.changed',
  'app.notices',
  'read.refreshed',
] as const;

export type EventName = (typeof EVENTS)[number];

export function isChannel(value: unknown): value is Channel {
  return typeof value === 'string' && (CHANNELS as readonly string[]).includes(value);
}

export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && (EVENTS as readonly string[]).includes(value);
}

/** Name of the single Electron IPC channel that carries every invoke, and of the event channel. */
export const IPC_INVOKE = 'takedesk:invoke';
export const IPC_EVENT = 'takedesk:event';
