import { z } from 'zod';
import type {
  AttributeValue,
  CancelProjectResponse,
  Category,
  CategoryAttribute,
  Deliverable,
  DeliverableSummary,
  ListProjectsResponse,
  Project,
  QuoteResponse,
  RejectResponse,
  RevisionResponse,
  SearchResponse,
  Track,
  VersionsResponse,
  ItemList,
  Read,
  AsOf,
} from '../api';
import { Id } from '../api/ids';
import { ListProjectsParams, SearchParams, TracksParams } from '../api/schemas';
import { DeliveryTargetSchema, SettingsSchema, type Settings } from './settings';
import { MEDIA_FORMATS } from './types';
import type { AudioAnalysis, QaVerdict } from '../audio';
import type { Channel, EventName } from './channels';
import type {
  AppInfo,
  StateNotice,
  DeliverableReadyEvent,
  DownloadJob,
  DownloadProgress,
  LibraryItem,
  LivePeaks,
  MediaUrl,
  OutboxItem,
  MenuCommand,
  PeaksPayload,
  ProfilesState,
  ProjectQaTarget,
  ReviewSnapshot,
  UpdateStatus,
  WatchedProject,
  WatcherStatus,
} from './types';

/** A channel's input schema and (type-only) output. */
interface ChannelSpec<I extends z.ZodType, O> {
  input: I;
  /** Phantom: carries the output type, never read at run time. */
  output?: O;
}

function channel<I extends z.ZodType>(input: I) {
  return { returns: <O>(): ChannelSpec<I, O> => ({ input }) };
}

// Ids go into request paths and index records: one rule for all (shared/api/ids.ts); unknown ids are the service's *_NO_EXIST.
const id = Id;
const none = z.undefined().or(z.null()).or(z.object({}).strict());
const url = z.string().max(2000);
const text = (max: number) => z.string().max(max);
const format = z.enum(MEDIA_FORMATS);
const target = DeliveryTargetSchema;
/** What the producer had heard and seen when deciding (OutboxHeard): kept with the decision until the service has it. */
const heard = z
  .object({
    version: z.number().int().min(1).max(100_000).optional(),
    status: text(40).optional(),
    projectId: id.optional(),
    reviewable: z.array(id).max(2_000).optional(),
  })
  .strict()
  .optional();

/**
 * A read that must be the service's answer (after the producer's own decision, or before one): main waits for the
 * service rather than answering at once from what was loaded. Without it, a loaded read answers at once (marked
 * `asOf`) and the service's answer follows as `read.refreshed`.
 */
const fresh = z.boolean().optional();

/** The whole renderer -> main surface. Main validates every input against these schemas. */
export const contract = {
  'app.info': channel(none).returns<AppInfo>(),
  /** What main recovered from damaged state files since the last call; each notice is given once. */
  'app.notices': channel(none).returns<StateNotice[]>(),

  'profiles.list': channel(none).returns<ProfilesState>(),
  'profiles.add': channel(
    z.object({ name: text(100).min(1), baseUrl: url.min(1), token: text(4000).min(1) }).strict(),
  ).returns<ProfilesState>(),
  'profiles.signIn': channel(
    z
      .object({
        name: text(100).min(1),
        baseUrl: url.min(1),
        email: text(320).min(1),
        password: text(1000).min(1),
      })
      .strict(),
  ).returns<ProfilesState>(),
  /** A profile whose session expired gets a new token: signed in again, or pasted. */
  'profiles.renew': channel(
    z.union([
      z.object({ id, email: text(320).min(1), password: text(1000).min(1) }).strict(),
      z.object({ id, token: text(4000).min(1) }).strict(),
    ]),
  ).returns<ProfilesState>(),
  'profiles.activate': channel(z.object({ id }).strict()).returns<ProfilesState>(),
  'profiles.remove': channel(z.object({ id }).strict()).returns<ProfilesState>(),
  /** Starts the embedded sandbox's process again now (it also restarts by itself after a crash). */
  'sandbox.restart': channel(none).returns<ProfilesState>(),

  'catalog.categories': channel(none).returns<Category[]>(),
  'catalog.attributes': channel(z.object({ categoryId: id }).strict()).returns<CategoryAttribute[]>(),
  'catalog.attributeValues': channel(z.object({ categoryId: id, attributeId: id }).strict()).returns<
    AttributeValue[]
  >(),
  'catalog.tracks': channel(TracksParams.strict().optional()).returns<Track[]>(),

  'projects.list': channel(ListProjectsParams.extend({ fresh }).strict().optional()).returns<
    Read<ListProjectsResponse> & AsOf
  >(),
  'projects.get': channel(z.object({ id, fresh }).strict()).returns<Read<Project> & AsOf>(),
  // The body is checked field by field by the service (and by the shared validator in the form): here only its
  // outer shape, so every spec 422 code can still reach the UI from the service itself.
  'projects.create': channel(z.object({ body: z.record(z.string(), z.unknown()) }).strict()).returns<
    Read<Project>
  >(),
  'projects.quote': channel(
    z.object({ body: z.record(z.string(), z.unknown()) }).strict(),
  ).returns<QuoteResponse>(),
  'projects.cancel': channel(
    z.object({ id, reason: text(2000), reasonCode: text(200).min(1) }).strict(),
  ).returns<CancelProjectResponse>(),
  /** After a lost create response: the newest project with this title, if the service has one. */
  'projects.findRecent': channel(z.object({ title: text(200).min(1) }).strict()).returns<Project | null>(),
  /** The active profile's projects with their deliverables' counts, from what main already read (no request). */
  'projects.review': channel(none).returns<ReviewSnapshot>(),
  /** "Next needing review" (or with `back`, the previous): the take after `after`, across the profile's projects. */
  'projects.nextReady': channel(
    z.object({ after: id.optional(), back: z.boolean().optional() }).strict(),
  ).returns<{
    projectId: string;
    deliverableId: string;
  } | null>(),

  /** The project's deliverables; `unreadable` counts those the service sent that could not be read (skipped). */
  'deliverables.list': channel(z.object({ projectId: id, fresh }).strict()).returns<
    ItemList<Deliverable> & AsOf
  >(),
  'deliverables.get': channel(z.object({ id, fresh }).strict()).returns<Deliverable & AsOf>(),
  'deliverables.approve': channel(z.object({ id, heard }).strict()).returns<DeliverableSummary>(),
  'deliverables.approveAll': channel(z.object({ projectId: id, heard }).strict()).returns<
    DeliverableSummary[]
  >(),
  'deliverables.reject': channel(
    z
      .object({
        id,
        heard,
        reason: text(2000).optional(),
        reasonCode: text(200).optional(),
        newGenderAndAge: text(100).optional(),
      })
      .strict(),
  ).returns<RejectResponse>(),
  'deliverables.selectWinner': channel(z.object({ id, heard }).strict()).returns<DeliverableSummary>(),

  'revisions.create': channel(
    z
      .object({
        deliverableId: id,
        heard,
        instructions: text(10_000),
        reason: text(100).optional(),
        revisionCode: text(200).optional(),
        checkTalent: z.boolean().optional(),
      })
      .strict(),
  ).returns<RevisionResponse>(),
  'revisions.versions': channel(z.object({ deliverableId: id, fresh }).strict()).returns<
    Read<VersionsResponse> & AsOf
  >(),

  'samples.search': channel(SearchParams.strict()).returns<Read<SearchResponse>>(),

  /** A playable URL for audio the service linked (deliverable, version, sample, track): proxied by main. */
  'media.remoteUrl': channel(z.object({ url }).strict()).returns<MediaUrl>(),
  'media.libraryUrl': channel(z.object({ id }).strict()).returns<MediaUrl>(),

  'downloads.start': channel(
    z
      .object({
        deliverableId: id,
        /** The deliverable's project: the spec's Deliverable does not name it, and the file is filed under it. */
        projectId: id,
        format,
        version: z.number().int().min(1).max(10_000).optional(),
      })
      .strict(),
  ).returns<DownloadJob>(),
  'downloads.startProject': channel(
    z
      .object({
        projectId: id,
        formats: z.array(format).min(1).max(4).optional(),
        /** Rejected takes are skipped unless asked for (see project-downloads.ts). */
        includeRejected: z.boolean().optional(),
      })
      .strict(),
  ).returns<DownloadJob[]>(),
  'downloads.list': channel(none).returns<DownloadJob[]>(),
  'downloads.pause': channel(z.object({ id }).strict()).returns<DownloadJob>(),
  'downloads.resume': channel(z.object({ id }).strict()).returns<DownloadJob>(),
  'downloads.cancel': channel(z.object({ id }).strict()).returns<DownloadJob>(),
  /** Peaks of a deliverable's audio while it streams into the library; null when no download of it is under way. */
  'downloads.livePeaks': channel(
    z.object({ deliverableId: id, version: z.number().int().min(1).max(10_000).optional() }).strict(),
  ).returns<LivePeaks | null>(),

  'library.list': channel(z.object({ projectId: id.optional() }).strict().optional()).returns<
    LibraryItem[]
  >(),
  'library.remove': channel(z.object({ id }).strict()).returns<LibraryItem[]>(),
  'library.reveal': channel(z.object({ id }).strict()).returns<{ path: string }>(),
  'library.startDrag': channel(z.object({ id }).strict()).returns<{ started: boolean }>(),
  'library.peaks': channel(z.object({ id }).strict()).returns<PeaksPayload | null>(),

  'settings.get': channel(none).returns<Settings>(),
  'settings.set': channel(SettingsSchema.partial().strict()).returns<Settings>(),

  'audio.analyze': channel(z.object({ id }).strict()).returns<AudioAnalysis>(),
  'audio.qa': channel(
    z
      .object({ id, target: target.optional(), orderedSeconds: z.number().min(0).max(86_400).optional() })
      .strict(),
  ).returns<QaVerdict>(),

  /** Each project's remembered QA target (active profile), by project id. */
  'qa.targets': channel(none).returns<Record<string, ProjectQaTarget>>(),
  'qa.setTarget': channel(
    z.object({ projectId: id, target, from: z.enum(['purpose', 'producer']) }).strict(),
  ).returns<Record<string, ProjectQaTarget>>(),

  'watcher.status': channel(none).returns<WatcherStatus>(),
  /** When one project was last checked and will be again. */
  'watcher.project': channel(z.object({ projectId: id }).strict()).returns<WatchedProject>(),
  /** "Check now": the project (or, without one, the project list) is due at once, at the budget's pace. */
  'watcher.checkNow': channel(z.object({ projectId: id.optional() }).strict()).returns<WatcherStatus>(),
  /** What the producer is looking at (the project on screen) and whether the window is shown: polling follows. */
  'watcher.attend': channel(
    z.object({ projectId: id.nullable(), visible: z.boolean() }).strict(),
  ).returns<null>(),

  'updates.status': channel(none).returns<UpdateStatus>(),
  'updates.check': channel(none).returns<UpdateStatus>(),
  'updates.install': channel(none).returns<{ restarting: boolean }>(),

  /** Decisions made while the service was unreachable, the active profile's, oldest first. */
  'outbox.list': channel(none).returns<OutboxItem[]>(),
  /** Drops an item that is not on its way (what was typed in it is gone too: the UI confirms first). */
  'outbox.discard': channel(z.object({ id }).strict()).returns<OutboxItem[]>(),
  /** Keeps a conflicting or refused decision and sends it as asked, without checking the service's state first. */
  'outbox.retry': channel(z.object({ id }).strict()).returns<OutboxItem[]>(),
  /** Tries to send what is queued now. */
  'outbox.send': channel(none).returns<OutboxItem[]>(),
  /**
   * Decisions of the account a profile signs in as that the service does not have yet (queued, sending, held or
   * refused): removing the profile warns with their count (they are kept, and come back with the same account).
   */
  'outbox.pending': channel(z.object({ profileId: id }).strict()).returns<number>(),
} satisfies Record<Channel, ChannelSpec<z.ZodType, unknown>>;

export type Contract = typeof contract;
export type ChannelInput<C extends Channel> = z.input<Contract[C]['input']>;
export type ParsedInput<C extends Channel> = z.output<Contract[C]['input']>;
export type ChannelOutput<C extends Channel> = Exclude<Contract[C]['output'], undefined>;

/** A record keyed by exactly the names K: a missing or an extra key does not compile. */
type Catalog<K extends PropertyKey, T extends Record<K, unknown> & Record<Exclude<keyof T, K>, never>> = T;

/** Payloads of the events main pushes: one for each name in EVENTS (channels.ts), and no other. */
export type EventPayloads = Catalog<
  EventName,
  {
    'downloads.progress': DownloadProgress[];
    'downloads.changed': DownloadJob;
    'library.changed': { count: number };
    'deliverable.ready': DeliverableReadyEvent;
    'profile.changed': ProfilesState;
    'watcher.status': WatcherStatus;
    /** A native menu item was chosen (its accelerator, or a click). */
    'menu.command': { command: MenuCommand };
    /** Show this hash-router path, e.g. `/projects/<uuid>` from a `takedesk://project/<uuid>` link. */
    'app.navigate': { route: string };
    'updates.status': UpdateStatus;
    /** The review index of this profile changed (projects.review answers anew). */
    'projects.reviewChanged': { profileId: string };
    /** The active profile's outbox after any change. */
    'outbox.changed': OutboxItem[];
    /** New notices wait in `app.notices` (a state file was recovered). */
    'app.notices': { count: number };
    /** The service's answer to a read that was answered first from what was loaded (`asOf`). */
    'read.refreshed': RefreshedRead;
  }
>;

/** The reads main answers from what was loaded, then refreshes. */
export const MIRRORED_READS = [
  'projects.list',
  'projects.get',
  'deliverables.list',
  'deliverables.get',
  'revisions.versions',
] as const satisfies readonly Channel[];
export type MirroredRead = (typeof MIRRORED_READS)[number];

/** A read's fresh answer: for the profile that asked, with the read's input as it was asked. */
export type RefreshedRead = {
  [C in MirroredRead]: { profileId: string; channel: C; input: ChannelInput<C>; value: ChannelOutput<C> };
}[MirroredRead];
export type EventPayload<E extends EventName> = EventPayloads[E];

/** What every invoke answers, whichever transport carries it. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: IpcErrorBody };

export interface IpcErrorBody {
  /** A catalog code: the service's own (`TALENT_ON_VACATION`), or a client one (`NETWORK_UNREACHABLE`). */
  type: string;
  /** The service's heading status, or 0 for client-side errors. */
  status: number;
  /** The body status when the service sent one that differs. */
  bodyStatus?: number;
  message: string;
  /** Field-level problems, for VALIDATION_ERROR and create-project 422s. */
  issues?: Array<{ path: string; code: string; message: string }>;
}
