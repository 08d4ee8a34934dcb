import type {
  AppInfo,
  StateNotice,
  LivePeaks,
  OutboxDecision,
  OutboxHeard,
  OutboxItem,
  ProfileSummary,
  ProfilesState,
  Settings,
} from '../../shared/ipc';
import type { UpdateStatus } from '../../shared/ipc';
import type { Deliverable, ProjectListItem } from '../../shared/api';
import { isLiveAccount } from '../../shared/api/account-kind';
import { sandboxValuesIn, type LiveRequest } from '../../shared/api/live-values';
import type { ApiClient } from './api/client';
import type { Handlers } from './ipc/router';
import { localError } from './local-error';
import type { DownloadsPort } from './downloads/downloads-service';
import type { LibraryPort } from './library/library-service';
import type { MediaRegistry } from './media/media-registry';
import type { RenewProfileInput } from './profiles';
import type { QaTargetsService } from './qa-targets';
import type { ReviewIndex } from './review-index';
import type { Mirror, Mirrored } from './review/mirror';
import { cancellationOf } from '../../shared/review/cancellation';
import type { PokeTarget, Watcher } from './watcher';

/** What the handlers need from the profiles service: the token stays inside it. */
export interface ProfilesPort {
  state(): Promise<ProfilesState>;
  add(input: { name: string; baseUrl: string; token: string }): Promise<ProfilesState>;
  signIn(input: { name: string; baseUrl: string; email: string; password: string }): Promise<ProfilesState>;
  renew(input: RenewProfileInput): Promise<ProfilesState>;
  activate(id: string): Promise<ProfilesState>;
  remove(id: string): Promise<ProfilesState>;
  restartSandbox(): Promise<ProfilesState>;
  /** The active profile's id with its client: answers are filed under the profile that gave them. */
  active(): Promise<{ profile: Pick<ProfileSummary, 'id' | 'name' | 'kind'>; client: ApiClient }>;
}

export interface DesktopPort {
  /** Shows a file in the OS file manager; browser mode answers with the path only. */
  reveal(path: string): void;
  /** Starts dragging a file out of the window that asked (`sender`: the caller's web contents); false if it cannot. */
  startDrag(path: string, sender: unknown): boolean;
}

/**
 * The producer's decisions (review/decisions.ts): each is committed with what was heard before it is sent, so one
 * made offline, or whose answer was lost, waits there and reaches the service once.
 */
export interface OutboxPort {
  decide<T>(
    decision: OutboxDecision,
    heard: OutboxHeard | undefined,
    send: (client: ApiClient) => Promise<T>,
  ): Promise<T>;
  list(): Promise<OutboxItem[]>;
  discard(id: string): Promise<OutboxItem[]>;
  retry(id: string): Promise<OutboxItem[]>;
  drain(): Promise<void>;
  /** What waits for the service among the decisions of the account `profileId` signs in as. */
  pendingCount(profileId: string): Promise<number>;
}

export interface UpdatesPort {
  status(): UpdateStatus;
  check(): Promise<unknown>;
  install(): boolean;
}

export interface HandlerDeps {
  appInfo(): Promise<AppInfo>;
  /** Notices about recovered state files not yet shown (each is given once). */
  stateNotices(): StateNotice[];
  profiles: ProfilesPort;
  media: MediaRegistry;
  downloads: DownloadsPort;
  library: LibraryPort;
  settings: { get(): Promise<Settings>; set(patch: Partial<Settings>): Promise<Settings> };
  watcher: Pick<Watcher, 'status' | 'attend' | 'project' | 'checkNow'> & {
    poke(target: PokeTarget): void;
    /** Projects the app listed: the watcher checks new ones in its budget's free slots. */
    observe(profileId: string, projects: readonly ProjectListItem[]): void;
  };
  desktop: DesktopPort;
  /** The app updater (Electron); browser mode answers `disabled`. */
  updates: UpdatesPort;
  qaTargets: QaTargetsService;
  /** Where each project stands, per profile, from the answers that pass here (and the watcher's). */
  review: ReviewIndex;
  outbox: OutboxPort;
  /** Peaks of a deliverable's audio while it streams into the library. */
  livePeaks(deliverableId: string, version?: number): Promise<LivePeaks | null>;
  /** Sees every deliverables listing (the outbox names its items from them). */
  onDeliverables?: (projectId: string, deliverables: Deliverable[]) => void;
  /**
   * The read mirror (review/mirror.ts): every read answer is kept under the profile's account, and answers for
   * the service when it cannot be reached. Without it, reads go to the service only.
   */
  mirror?: { store: Mirror; account(profileId: string): Promise<string> };
  /** Overrides MIRROR_AFTER_MS (tests). */
  mirrorAfterMs?: number;
  log?: (message: string, error?: unknown) => void;
}

/**
 * The service did not answer (as opposed to answering no): no connection, a timeout, the sandbox down, a gateway's
 * 502/503/504. Only then does a read answer from the mirror.
 */
export function isUnreachable(error: unknown): boolean {
  const e = error as { type?: unknown; status?: unknown } | null;
  if (e?.type === 'NETWORK_UNREACHABLE' || e?.type === 'TIMEOUT' || e?.type === 'SANDBOX_UNAVAILABLE')
    return true;
  if (typeof e?.type === 'string' && /^HTTP_50[234]$/.test(e.type)) return true;
  return typeof e?.status === 'number' && e.status >= 502 && e.status <= 504;
}

/**
 * How long a read waits for the service before what was loaded answers (when something was): a service that hangs
 * costs the client's timeout and retries, far longer than a screen may stay empty.
 */
export const MIRROR_AFTER_MS = 3_000;

/** Thin handlers: validated input -> service call -> value. Service answers' media links are remembered. */
export function createHandlers(deps: HandlerDeps): Handlers {
  const api = async () => (await deps.profiles.active()).client;
  const { review } = deps;
  const seen = <T>(value: T): T => {
    deps.media.remember(value);
    return value;
  };
  const activeId = async () => (await deps.profiles.state()).activeId;
  /**
   * The last check before a live account is sent a body: no value live-values.ts marks sandbox-only (the forms
   * offer none there; this keeps any other caller to it). Refused here, it is neither sent nor queued.
   */
  const documentedOnly = async (request: LiveRequest, body: Readonly<Record<string, unknown>>) => {
    const { profile } = await deps.profiles.active();
    if (!isLiveAccount(profile.kind)) return;
    const found = sandboxValuesIn(request, body);
    if (found.length === 0) return;
    const named = found.map(({ field, value }) => `${field.split('.').pop()} ${JSON.stringify(value)}`);
    throw localError(
      'SANDBOX_ONLY_VALUE',
      `${profile.name} is a live account, and the service does not document ${named.join(', ')}: nothing was sent.`,
    );
  };
  /** A decision's answer updates the review index of the profile that took it. */
  const decided = <T extends { id: string; status: string }>(profileId: string, answer: T): T => {
    review.decided(profileId, [answer]);
    return answer;
  };
  /**
   * A read through the mirror: the service's answer is kept (under the account of the profile that asked) and
   * returned; when the service cannot be reached, what was loaded answers instead, marked `asOf`, and what never
   * was says so in words. What was loaded also answers at once when the service is known to be away (its last call
   * found no connection), or has not answered within `mirrorAfterMs`: the service's answer, when it comes, still
   * refreshes the mirror for the next read. Keeping an answer never fails the read.
   */
  const readThrough = async <T, R = T>(
    what: string,
    ask: (active: { profile: { id: string }; client: ApiClient }) => Promise<T>,
    keep: (mirror: Mirror, account: string, answer: T) => void,
    stored: (mirror: Mirror, account: string) => Mirrored<R> | null,
    answer: (value: T) => R,
  ): Promise<R | Mirrored<R>> => {
    const mirror = deps.mirror;
    const state = await deps.profiles.state();
    const asking = (async () => {
      const active = await deps.profiles.active();
      const value = await ask(active);
      if (mirror) {
        try {
          keep(mirror.store, await mirror.account(active.profile.id), value);
        } catch (error) {
          deps.log?.('the read mirror could not keep an answer', error);
        }
      }
      return value;
    })();
    if (!mirror) return answer(await asking);
    const fromMirror = async () => stored(mirror.store, await mirror.account(state.activeId));
    const away = state.profiles.find((p) => p.id === state.activeId)?.reachability === 'unreachable';
    const early = away ? await fromMirror().catch(() => null) : null;
    if (early) {
      asking.catch(() => undefined);
      return early;
    }
    let timer: NodeJS.Timeout | undefined;
    const slow = new Promise<'slow'>((resolve) => {
      timer = setTimeout(() => resolve('slow'), deps.mirrorAfterMs ?? MIRROR_AFTER_MS);
    });
    try {
      const first = await Promise.race([asking, slow]);
      if (first !== 'slow') return answer(first);
      const found = await fromMirror().catch(() => null);
      if (found) {
        asking.catch(() => undefined);
        return found;
      }
      return answer(await asking);
    } catch (error) {
      if (!isUnreachable(error)) throw error;
      const found = await fromMirror();
      if (found) return found;
      throw localError(
        'NOT_LOADED_OFFLINE',
        `${what} not loaded on this computer yet, and the service cannot be reached: ${(error as Error).message}`,
      );
    } finally {
      clearTimeout(timer);
    }
  };
  /** The producer acted on a project: the watcher checks it now and keeps it hot for the hour. */
  const poke = <T>(value: T, target: PokeTarget): T => {
    deps.watcher.poke(target);
    return value;
  };

  return {
    'app.info': () => deps.appInfo(),
    'app.notices': async () => deps.stateNotices(),

    'profiles.list': () => deps.profiles.state(),
    'profiles.add': (input) => deps.profiles.add(input),
    'profiles.signIn': (input) => deps.profiles.signIn(input),
    'profiles.renew': (input) => deps.profiles.renew(input),
    'profiles.activate': ({ id }) => deps.profiles.activate(id),
    'profiles.remove': ({ id }) => deps.profiles.remove(id),
    'sandbox.restart': () => deps.profiles.restartSandbox(),

    'catalog.categories': async () => (await api()).listCategories(),
    'catalog.attributes': async ({ categoryId }) => (await api()).getAttributes(categoryId),
    'catalog.attributeValues': async ({ categoryId, attributeId }) =>
      (await api()).getAttributeValues(categoryId, attributeId),
    'catalog.tracks': async (input) => seen(await (await api()).listTracks(input ?? {})),

    'projects.list': (input) =>
      readThrough(
        'This list of projects was',
        async ({ profile, client }) => {
          const result = await client.listProjects(input ?? {});
          review.projects(profile.id, result.projects);
          deps.watcher.observe(profile.id, result.projects);
          return result;
        },
        (mirror, account, result) => mirror.listed(account, input ?? {}, result),
        (mirror, account) => mirror.readList(account, input ?? {}),
        (result) => result,
      ),
    'projects.get': ({ id }) =>
      readThrough(
        'This project was',
        async ({ profile, client }) => {
          const project = await client.getProject(id);
          review.projects(profile.id, [project]);
          return project;
        },
        (mirror, account, project) => mirror.project(account, project),
        (mirror, account) => mirror.readProject(account, id),
        (project) => project,
      ),
    'projects.create': async ({ body }) => {
      await documentedOnly('create', body);
      const { profile, client } = await deps.profiles.active();
      const project = await client.createProject(body);
      review.projects(profile.id, [project]);
      return poke(project, { projectId: project.id, title: project.title });
    },
    'projects.quote': async ({ body }) => {
      await documentedOnly('create', body);
      return (await api()).quote(body);
    },
    'projects.cancel': async ({ id, reason, reasonCode }) => {
      await documentedOnly('cancel', { reason, reasonCode });
      // The fee depends on whether takes were in review when the producer canceled: taken before the answer.
      const ready = review.readyCount(await activeId(), id);
      const answer = await deps.outbox.decide(
        { kind: 'cancel', projectId: id, reason, reasonCode },
        { projectId: id },
        (client) => client.cancelProject(id, { reason, reasonCode }),
      );
      const profileId = await activeId();
      review.status(profileId, id, answer.status);
      review.canceled(
        profileId,
        id,
        cancellationOf(answer, { reason, reasonCode }, ready === null ? null : ready > 0, new Date()),
      );
      return answer;
    },
    'projects.findRecent': async ({ title }) => (await api()).findRecentProject(title),
    // What main already knows (no request): the renderer asks again on `projects.reviewChanged`.
    'projects.review': async () => review.snapshot((await deps.profiles.state()).activeId),
    'projects.nextReady': async ({ after, back }) =>
      review.nextReady((await deps.profiles.state()).activeId, after, back),

    'deliverables.list': async ({ projectId }) => {
      const answer = await readThrough(
        'The takes of this project were',
        async ({ profile, client }) => {
          const list = seen(await client.listDeliverables(projectId));
          review.deliverables(profile.id, projectId, list);
          deps.onDeliverables?.(projectId, list);
          return list;
        },
        (mirror, account, list) => mirror.deliverables(account, projectId, list, list.unreadable ?? 0),
        (mirror, account) => mirror.readDeliverables(account, projectId),
        // JSON carries no count on an array: the list travels wrapped, with its skipped items counted.
        (list) => ({ items: [...list], unreadable: list.unreadable ?? 0 }),
      );
      // Offline too, the media links of what was loaded are known again (a stored take's file may be cached).
      if ('asOf' in answer) {
        seen(answer.items);
        deps.onDeliverables?.(projectId, answer.items);
      }
      return answer;
    },
    'deliverables.get': async ({ id }) =>
      seen(
        await readThrough(
          'This take was',
          async ({ client }) => client.getDeliverable(id),
          (mirror, account, deliverable) => mirror.deliverable(account, deliverable),
          (mirror, account) => mirror.readDeliverable(account, id),
          (deliverable) => deliverable,
        ),
      ),
    // Decisions go through the outbox: made while the service is away, they wait there and are sent in order.
    // Their answers update the review index of the profile that took them.
    'deliverables.approve': async ({ id, heard }) =>
      decided(
        await activeId(),
        await deps.outbox.decide({ kind: 'approve', deliverableId: id }, heard, (client) =>
          client.approveDeliverable(id),
        ),
      ),
    'deliverables.approveAll': async ({ projectId, heard }) => {
      const answers = await deps.outbox.decide(
        { kind: 'approveAll', projectId },
        { ...heard, projectId },
        (client) => client.approveAll(projectId),
      );
      review.decided(await activeId(), answers);
      return answers;
    },
    // A rejected take is replaced by a new deliverable (docs/service.md#rejected-takes-are-replaced): watch
    // for it.
    'deliverables.reject': async ({ id, heard, ...params }) => {
      await documentedOnly('reject', params);
      const answer = await deps.outbox.decide(
        { kind: 'reject', deliverableId: id, ...params },
        heard,
        (client) => client.rejectDeliverable(id, params),
      );
      return poke(decided(await activeId(), answer), { deliverableId: id });
    },
    'deliverables.selectWinner': async ({ id, heard }) =>
      decided(
        await activeId(),
        await deps.outbox.decide({ kind: 'winner', deliverableId: id }, heard, (client) =>
          client.selectWinner(id),
        ),
      ),

    'revisions.create': async ({ deliverableId, heard, ...body }) => {
      await documentedOnly('revision', body);
      const answer = await deps.outbox.decide({ kind: 'revision', deliverableId, ...body }, heard, (client) =>
        client.createRevision(deliverableId, body),
      );
      review.decided(await activeId(), [{ id: deliverableId, status: answer.status }]);
      return poke(answer, { deliverableId });
    },
    'revisions.versions': async ({ deliverableId }) => {
      const answer = seen(
        await readThrough(
          'The versions of this take were',
          async ({ client }) => client.listVersions(deliverableId),
          (mirror, account, answer) => mirror.versions(account, answer),
          (mirror, account) => mirror.readVersions(account, deliverableId),
          (answer) => answer,
        ),
      );
      // Their dates are the project's latest activity the list can sort by.
      review.versions(
        await activeId(),
        deliverableId,
        answer.versions.map((version) => version.created),
      );
      return answer;
    },

    'samples.search': async (input) => {
      await documentedOnly('search', input);
      return seen(await (await api()).search(input));
    },

    'media.remoteUrl': ({ url }) => deps.media.remoteUrl(url),
    'media.libraryUrl': async ({ id }) => {
      const path = await deps.library.pathOf(id);
      if (!path) throw localError('NOT_FOUND_LOCAL', 'This file is not in the library.');
      return deps.media.libraryUrl(id);
    },

    'downloads.start': (input) => deps.downloads.start(input),
    'downloads.startProject': (input) => deps.downloads.startProject(input),
    'downloads.list': () => deps.downloads.list(),
    'downloads.pause': ({ id }) => deps.downloads.pause(id),
    'downloads.resume': ({ id }) => deps.downloads.resume(id),
    'downloads.cancel': ({ id }) => deps.downloads.cancel(id),
    'downloads.livePeaks': ({ deliverableId, version }) => deps.livePeaks(deliverableId, version),

    'library.list': (input) => deps.library.list(input?.projectId),
    'library.remove': ({ id }) => deps.library.remove(id),
    'library.reveal': async ({ id }) => {
      const path = await deps.library.pathOf(id);
      if (!path) throw localError('NOT_FOUND_LOCAL', 'This file is not in the library.');
      deps.desktop.reveal(path);
      return { path };
    },
    'library.startDrag': async ({ id }, ctx) => {
      const path = await deps.library.pathOf(id);
      if (!path) throw localError('NOT_FOUND_LOCAL', 'This file is not in the library.');
      return { started: ctx.transport === 'electron' && deps.desktop.startDrag(path, ctx.sender) };
    },
    'library.peaks': ({ id }) => deps.library.peaks(id),

    'settings.get': () => deps.settings.get(),
    'settings.set': (patch) => deps.settings.set(patch),

    'audio.analyze': ({ id }) => deps.library.analyze(id),
    'audio.qa': async ({ id, target, orderedSeconds }) =>
      deps.library.qa(id, target ?? (await deps.settings.get()).deliveryTarget, orderedSeconds),

    'qa.targets': () => deps.qaTargets.list(),
    'qa.setTarget': ({ projectId, target, from }) => deps.qaTargets.set(projectId, { target, from }),

    'watcher.status': () => deps.watcher.status(),
    'watcher.project': ({ projectId }) => deps.watcher.project(projectId),
    'watcher.checkNow': ({ projectId }) => deps.watcher.checkNow(projectId),
    'watcher.attend': (attention) => {
      deps.watcher.attend(attention);
      return null;
    },

    'updates.status': () => deps.updates.status(),
    'updates.check': async () => {
      await deps.updates.check();
      return deps.updates.status();
    },
    'updates.install': () => ({ restarting: deps.updates.install() }),

    'outbox.list': () => deps.outbox.list(),
    'outbox.pending': ({ profileId }) => deps.outbox.pendingCount(profileId),
    'outbox.discard': ({ id }) => deps.outbox.discard(id),
    'outbox.retry': ({ id }) => deps.outbox.retry(id),
    'outbox.send': async () => {
      await deps.outbox.drain();
      return deps.outbox.list();
    },
  };
}
