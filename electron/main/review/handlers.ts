/**
 * The review's part of the handler map: projects and their takes, read through the read mirror; the producer's
 * decisions, which go through the outbox; and the outbox itself. What follows a decision lives here too: its
 * answer updates the review index of the profile that took it, and creating, rejecting and revising poke the
 * watcher.
 */
import type { Deliverable, ProjectListItem } from '../../../shared/api';
import type { OutboxDecision, OutboxHeard, OutboxItem } from '../../../shared/ipc';
import { cancellationOf } from '../../../shared/review/cancellation';
import { activeProfileId } from '../kernel/active-profile-id';
import type { ApiClient } from '../api';
import type { HandlersIn } from '../kernel/handler-types';
import type { LiveGuard } from '../profiles';
import type { ProfilesPort } from '../profiles';
import type { ReviewIndex } from './review-index';
import type { PokeTarget } from '../watcher';
import { createMirroredRead, type MirroredReadDeps } from './mirrored-read';

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

export interface ReviewHandlerDeps extends MirroredReadDeps {
  profiles: Pick<ProfilesPort, 'state' | 'active'>;
  /** Where each project stands, per profile, from the answers that pass here (and the watcher's). */
  review: ReviewIndex;
  outbox: OutboxPort;
  watcher: {
    poke(target: PokeTarget): void;
    /** Projects the app listed: the watcher checks new ones in its budget's free slots. */
    observe(profileId: string, projects: readonly ProjectListItem[]): void;
  };
  /** Sees every deliverables listing (the outbox names its items from them). */
  onDeliverables?: (projectId: string, deliverables: Deliverable[]) => void;
  documentedOnly: LiveGuard;
  /** Remembers an answer's media links (they can be played). */
  seen: <T>(value: T) => T;
}

export function createReviewHandlers(
  deps: ReviewHandlerDeps,
): HandlersIn<'projects' | 'deliverables' | 'revisions' | 'outbox'> {
  const api = async () => (await deps.profiles.active()).client;
  const { review, seen, documentedOnly } = deps;
  const activeId = () => activeProfileId(deps.profiles);
  const readThrough = createMirroredRead(deps);
  /**
   * A decision's answer is what the service says of those takes now: it updates the review index of the profile
   * that took it, and the read mirror shows it from then on.
   */
  const takesDecided = (profileId: string, takes: ReadonlyArray<{ id: string; status: string }>) => {
    review.decided(profileId, takes);
    const mirror = deps.mirror;
    if (!mirror) return;
    void mirror
      .account(profileId)
      .then((account) => mirror.store.decided(account, takes))
      .catch((error: unknown) => deps.log?.('the read mirror could not keep a decision’s answer', error));
  };
  /** One take's decision answer, passed on as it came. */
  const decided = <T extends { id: string; status: string }>(profileId: string, answer: T): T => {
    takesDecided(profileId, [answer]);
    return answer;
  };
  /** The producer acted on a project: the watcher checks it now and keeps it hot for the hour. */
  const poke = <T>(value: T, target: PokeTarget): T => {
    deps.watcher.poke(target);
    return value;
  };

  return {
    'projects.list': (input) => {
      const { fresh, ...query } = input ?? {};
      return readThrough(
        { channel: 'projects.list', input: query, fresh, what: 'This list of projects was' },
        async ({ profile, client }) => {
          const result = await client.listProjects(query);
          review.projects(profile.id, result.projects);
          deps.watcher.observe(profile.id, result.projects);
          return result;
        },
        (mirror, account, result) => mirror.listed(account, query, result),
        (mirror, account) => mirror.readList(account, query),
        (result) => result,
      );
    },
    'projects.get': ({ id, fresh }) =>
      readThrough(
        { channel: 'projects.get', input: { id }, fresh, what: 'This project was' },
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
    'projects.review': async () => review.snapshot(await activeId()),
    'projects.nextReady': async ({ after, back }) => review.nextReady(await activeId(), after, back),

    'deliverables.list': async ({ projectId, fresh }) => {
      const answer = await readThrough(
        { channel: 'deliverables.list', input: { projectId }, fresh, what: 'The takes of this project were' },
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
    'deliverables.get': async ({ id, fresh }) =>
      seen(
        await readThrough(
          { channel: 'deliverables.get', input: { id }, fresh, what: 'This take was' },
          async ({ client }) => seen(await client.getDeliverable(id)),
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
      takesDecided(await activeId(), answers);
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
      takesDecided(await activeId(), [{ id: deliverableId, status: answer.status }]);
      return poke(answer, { deliverableId });
    },
    'revisions.versions': async ({ deliverableId, fresh }) => {
      const answer = seen(
        await readThrough(
          {
            channel: 'revisions.versions',
            input: { deliverableId },
            fresh,
            what: 'The versions of this take were',
          },
          async ({ client }) => seen(await client.listVersions(deliverableId)),
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
