/**
 * The main-process client of the Creative Audio Projects service: one typed method per endpoint
 * (docs/service.md#endpoints), responses validated with the shared schemas, service errors as
 * ServiceError, and retries that never act twice (issue 4, item 2).
 *
 * A thin front over its units: the transport core (`transport.ts`: sending, retries, reading answers, errors), the
 * endpoint table (`endpoints.ts`: what each operation sends) and the project finder (`project-finder.ts`). What is
 * left here is what a method does beyond one call: claiming "already done" after a lost answer, falling back to
 * built-in lists, and finding a created project whose answer could not be read.
 */
import {
  CancelProjectResponse,
  isServiceError,
  isWinnerRefusal,
  RejectResponse,
  RevisionResponse,
  ServiceError,
  type AttributeValue,
  type Category,
  type CategoryAttribute,
  type Deliverable,
  type DeliverableSummary,
  type ListProjectsResponse,
  type ListProjectsParams,
  type Project,
  type QuoteResponse,
  type Read,
  type SearchParams,
  type SearchResponse,
  type SignInResponse,
  type Track,
  type TracksParams,
  type VersionsResponse,
} from '../../../shared/api';
import {
  compact,
  endpoints,
  type CancelParams,
  type CreateProjectRequest,
  type QuoteRequest,
  type RejectParams,
  type RevisionParams,
} from './endpoints';
import { ApiClientError, isApiClientError, type CreateOutcomeUnknownDetails } from './errors';
import { builtinFallbacks } from './fallbacks';
import { findRecentProject } from './project-finder';
import { createTransport, type ApiClientOptions } from './transport';

export type { ApiClientOptions, UnreadableReport } from './transport';
export type {
  CancelParams,
  CreateProjectRequest,
  QuoteRequest,
  RejectParams,
  RevisionParams,
} from './endpoints';

/** One typed method per endpoint; every method rejects with ServiceError or ApiClientError. */
export interface ApiClient {
  readonly baseUrl: string;
  /**
   * The same client, but a write whose answer was lost is never sent again by it (reads still are): for the
   * decisions store, which reads the take before any resend, so that a decision reaches the service at most once.
   * Optional so that stand-ins need not offer it.
   */
  once?(): ApiClient;
  listProjects(query?: ListProjectsParams): Promise<Read<ListProjectsResponse>>;
  getProject(id: string): Promise<Read<Project>>;
  /** Never retried: a lost answer rejects with CREATE_OUTCOME_UNKNOWN (details: CreateOutcomeUnknownDetails). */
  createProject(body: CreateProjectRequest): Promise<Read<Project>>;
  cancelProject(id: string, params: CancelParams): Promise<CancelProjectResponse>;
  search(query: SearchParams): Promise<Read<SearchResponse>>;
  listDeliverables(projectId: string): Promise<Read<Deliverable[]>>;
  approveAll(projectId: string): Promise<Read<DeliverableSummary[]>>;
  getDeliverable(id: string): Promise<Deliverable>;
  approveDeliverable(id: string): Promise<DeliverableSummary>;
  rejectDeliverable(id: string, params?: RejectParams): Promise<RejectResponse>;
  selectWinner(id: string): Promise<DeliverableSummary>;
  listVersions(id: string): Promise<Read<VersionsResponse>>;
  createRevision(id: string, body: RevisionParams): Promise<RevisionResponse>;
  listCategories(): Promise<Category[]>;
  getAttributes(categoryId: string): Promise<CategoryAttribute[]>;
  getAttributeValues(categoryId: string, attributeId: string): Promise<AttributeValue[]>;
  listTracks(query?: TracksParams): Promise<Track[]>;
  getTrack(id: number | string): Promise<Track>;
  quote(body: QuoteRequest): Promise<QuoteResponse>;
  /** `POST /users/auth` without a token; the password goes only into this request's body. */
  signIn(email: string, password: string): Promise<SignInResponse>;
  /**
   * The newest project with exactly this title (via `titleQuery`), optionally created at or after
   * `since` (service timestamp format); null when there is none. The docs give dates no zone, so a zone-less
   * `created` within a day's zone offsets of `since`, either way, is taken only when it is `body` (the request
   * that was sent): no field both carry differs.
   */
  findRecentProject(
    title: string,
    options?: { since?: string; body?: Record<string, unknown> },
  ): Promise<Project | null>;
}

/** Creates a client bound to one base URL and token source. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const { baseUrl, send, write, withFallback, markSent, createOutcomeUnknown } = createTransport(options);
  const fallbacks = options.fallbacks ?? builtinFallbacks();

  let onceClient: ApiClient | undefined;
  const client: ApiClient = {
    baseUrl,

    once() {
      if (options.resendWrites === false) return client;
      return (onceClient ??= createApiClient({ ...options, resendWrites: false }));
    },

    async listProjects(query) {
      return send(endpoints.listProjects(query));
    },

    async getProject(id) {
      return send(endpoints.getProject(id));
    },

    async createProject(body) {
      const call = endpoints.createProject(body);
      markSent(call);
      try {
        return await send(call);
      } catch (error) {
        // A 2xx we cannot read: the project was made. Find it; never invite a resend (it would order twice).
        if (!isApiClientError(error, 'UNEXPECTED_RESPONSE') || error.status < 200 || error.status > 299)
          throw error;
        const details = createOutcomeUnknown(call, 'UNEXPECTED_RESPONSE');
        const { title, sentAt: since } = details.details as unknown as CreateOutcomeUnknownDetails;
        const found = title
          ? await client
              .findRecentProject(title, { since, body: call.json as Record<string, unknown> })
              .catch(() => null)
          : null;
        if (found) return found;
        throw details;
      }
    },

    async cancelProject(id, { reason, reasonCode }) {
      return write(endpoints.cancelProject(id, { reason, reasonCode }), async (error) => {
        if (error.type !== 'PROJECT_ALREADY_CANCELED') return undefined;
        const project = await client.getProject(id);
        if (project.status !== 'canceled') return undefined;
        const { services: _services, ...fields } = project;
        return CancelProjectResponse.parse({ ...fields, reason, reasonCode });
      });
    },

    async search(query) {
      return send(endpoints.search(query));
    },

    async listDeliverables(projectId) {
      return send(endpoints.listDeliverables(projectId));
    },

    async approveAll(projectId) {
      return write(endpoints.approveAll(projectId), async (error) => {
        if (error.type !== 'PROJECT_ALREADY_APPROVED') return undefined;
        const deliverables = await client.listDeliverables(projectId);
        return deliverables.map(({ urls: _urls, ...summary }) => summary);
      });
    },

    async getDeliverable(id) {
      return send(endpoints.getDeliverable(id));
    },

    async approveDeliverable(id) {
      return write(endpoints.approveDeliverable(id), async (error) => {
        if (error.type !== 'DELIVERABLE_ALREADY_APPROVED') return undefined;
        return client.getDeliverable(id);
      });
    },

    async rejectDeliverable(id, params = {}) {
      return write(endpoints.rejectDeliverable(id, params), async (error) => {
        if (error.type !== 'DELIVERABLE_ALREADY_REJECTED') return undefined;
        const deliverable = await client.getDeliverable(id);
        return RejectResponse.parse({ ...deliverable, ...compact({ ...params }) });
      });
    },

    async selectWinner(id) {
      return write(endpoints.selectWinner(id), async (error) => {
        // Someone else's winner must stay an error; only "ours is now the winner" is our success.
        if (error.type !== 'WINNER_ALREADY_SELECTED') return undefined;
        const deliverable = await client.getDeliverable(id);
        return deliverable.status === 'winner' ? deliverable : undefined;
      }).catch(refusedWinner);
    },

    async listVersions(id) {
      return send(endpoints.listVersions(id));
    },

    async createRevision(id, body) {
      const call = endpoints.createRevision(id, body);
      return write(call, async (error) => {
        if (error.type !== 'DELIVERABLE_PENDING_REVISION') return undefined;
        const deliverable = await client.getDeliverable(id);
        if (deliverable.status !== 'revisionRequested') return undefined;
        return RevisionResponse.parse({ ...deliverable, ...(call.json as object) });
      });
    },

    listCategories() {
      return withFallback(
        () => send(endpoints.listCategories()),
        () => fallbacks.categories(),
      );
    },

    getAttributes(categoryId) {
      return withFallback(
        () => send(endpoints.getAttributes(categoryId)),
        () => fallbacks.attributes(categoryId),
      );
    },

    getAttributeValues(categoryId, attributeId) {
      return withFallback(
        () => send(endpoints.getAttributeValues(categoryId, attributeId)),
        () => fallbacks.attributeValues(categoryId, attributeId),
      );
    },

    listTracks(query = {}) {
      return withFallback(
        () => send(endpoints.listTracks(query)),
        () => fallbacks.tracks(query),
      );
    },

    getTrack(id) {
      return withFallback(
        () => send(endpoints.getTrack(id)),
        () => fallbacks.track(Number(id)),
      );
    },

    async quote(body) {
      return send(endpoints.quote(body));
    },

    async signIn(email, password) {
      return send(endpoints.signIn(email, password));
    },

    findRecentProject(title, options) {
      return findRecentProject(client, title, options);
    },
  };
  return client;
}

/**
 * Winners are not on the live pages (docs/service.md#contest-winners): a refusal outside the interface's
 * winner errors becomes WINNER_NOT_OFFERED, one plain message, instead of a code the producer cannot act on.
 */
function refusedWinner(error: unknown): never {
  if ((isServiceError(error) || error instanceof ApiClientError) && isWinnerRefusal(error)) {
    throw new ServiceError('WINNER_NOT_OFFERED', undefined, {
      status: error.status,
      bodyStatus: isServiceError(error) ? error.bodyStatus : error.status,
      operation: 'selectWinner',
      cause: error,
    });
  }
  throw error;
}
