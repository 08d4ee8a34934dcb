/**
 * The main-process client of the Creative Audio Projects service: one typed method per endpoint
 * (docs/service.md#endpoints), responses validated with the shared schemas, service errors as
 * ServiceError, and retries that never act twice (issue 4, item 2).
 */
import got, { HTTPError, RequestError, TimeoutError, type Response } from 'got';
import type { z } from 'zod';
import {
  AttributeValuesResponse,
  CancelProjectResponse,
  CategoriesResponse,
  CategoryAttributesResponse,
  Deliverable,
  DeliverablesResponse,
  DeliverableSummary,
  ErrorBody,
  ID_RULE_MESSAGE,
  isoNoZone,
  isSafeId,
  isServiceError,
  isWinnerRefusal,
  ListProjectsResponse,
  readAnswer,
  pageMayContinue,
  serviceTime,
  normalizeScript,
  Project,
  QuoteResponse,
  RejectResponse,
  RevisionResponse,
  SearchResponse,
  ServiceError,
  SignInResponse,
  Track,
  TracksResponse,
  VersionsResponse,
  ApproveAllResponse,
  type AttributeValue,
  type CancelProjectBody,
  type RejectDeliverableBody,
  type RevisionBody,
  type Category,
  type CategoryAttribute,
  type CreateProjectBodyInput,
  type Operation,
  type ProjectListItem,
  type QuoteBody,
  type ListProjectsParams,
  type Read,
  type SearchParams,
  type SkippedItem,
  type TracksParams,
} from '../../../shared/api';
import { ApiClientError, isApiClientError, type CreateOutcomeUnknownDetails } from './errors';
import { builtinFallbacks, type ApiFallbacks } from './fallbacks';
import { backoffDelay, parseRetryAfter, retryPolicy, type RetryOptions, type RetrySettings } from './retry';

export interface ApiClientOptions {
  /** Service root, e.g. `https://api.example.com` or the sandbox URL; a trailing slash is ignored. */
  baseUrl: string;
  /** Read per request, so a replaced or deleted token takes effect at once. */
  getToken: () => Promise<string | null>;
  /** Whole-request limit per attempt. Default 30 s. */
  timeoutMs?: number;
  retry?: RetryOptions;
  /** Lists used when the service has no categories/attributes/values/tracks endpoints (404). */
  fallbacks?: ApiFallbacks;
  /** Told about list items that could not be read and were skipped (default: main's log). */
  onUnreadable?: (report: UnreadableReport) => void;
  /**
   * Certificate authorities (PEM) trusted instead of the system's: the sandbox's own certificate in HTTPS mode, for
   * the Sandbox profile only. Absent: the system trust store.
   */
  ca?: string;
  /**
   * Whether a write whose answer was lost may be sent again here (default true; never a create or a revision). The
   * decisions store turns it off (`ApiClient.once`): it reads the take before anything is sent again.
   */
  resendWrites?: boolean;
}

/** List items of one answer that were skipped: where and why, never their content or the token. */
export interface UnreadableReport {
  operation: Operation;
  method: string;
  path: string;
  skipped: SkippedItem[];
}

/**
 * What a cancel sends beside its status; both fields go out (`reasonCode`: `main` or `main.sub`,
 * docs/service.md#cancel-reasons).
 */
export type CancelParams = Required<Omit<CancelProjectBody, 'status'>>;
export type RejectParams = Omit<RejectDeliverableBody, 'status'>;
/** A revision as callers hold it (`checkTalent` defaults to false). */
export type RevisionParams = z.input<typeof RevisionBody>;

/**
 * A create body as callers hold it: the typed input, or an unchecked record from the renderer
 * (the service itself answers the spec's 422 codes, so the client does not pre-validate).
 */
export type CreateProjectRequest = CreateProjectBodyInput | Record<string, unknown>;
export type QuoteRequest = z.input<typeof QuoteBody> | Record<string, unknown>;

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

type Method = 'GET' | 'PUT' | 'POST';

interface Call<T> {
  operation: Operation;
  method: Method;
  path: string;
  searchParams?: Record<string, string | number>;
  json?: unknown;
  schema: z.ZodType<T>;
  /** Send the token (everything but sign-in). */
  auth?: boolean;
  /** For writes: may it be sent again after a lost response? (createProject: no). */
  resend?: boolean;
}

/** Set by `send` so a write can tell a genuine error from the echo of its own lost first attempt. */
interface Trace {
  lostResponse: boolean;
}

/** Transport failures before any byte of the request could have reached the service. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);
const NOT_SENT_TIMEOUTS = new Set(['lookup', 'connect', 'secureConnect']);
// TLS verification failures (OpenSSL's codes, node's host-name check): nothing was sent, and a retry fails the same.
const CERTIFICATE_CODES =
  /^(ERR_TLS_CERT_ALTNAME_INVALID|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_.*|CERT_.*)$/u;

const FINDER_PAGE_SIZE = 100;
const FINDER_MAX_PAGES = 10;

/**
 * Builds an endpoint path from its template, e.g. endpoint`/projects/${id}`: each value must pass the id rule
 * (shared/api/ids.ts) and is percent-encoded as one path segment, so no id can reach another endpoint
 * (issue 13, item 7). `send` checks the parsed URL again before the token goes anywhere.
 */
function endpoint(template: TemplateStringsArray, ...ids: Array<string | number>): string {
  let path = template[0]!;
  ids.forEach((value, i) => {
    const text = String(value);
    if (!isSafeId(text)) throw invalidId();
    path += encodeURIComponent(text) + template[i + 1]!;
  });
  return path;
}

function invalidId(): ApiClientError {
  return new ApiClientError('VALIDATION_ERROR', ID_RULE_MESSAGE);
}

/** Creates a client bound to one base URL and token source. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = options.baseUrl.trim().replace(/\/+$/, '');
  const origin = safeOrigin(baseUrl);
  const basePath = safePathname(baseUrl);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const policy: RetrySettings = retryPolicy(options.retry);
  const fallbacks = options.fallbacks ?? builtinFallbacks();
  // Remembered per create call, so the finder can skip older projects with the same title.
  const sentAt = new WeakMap<Call<unknown>, string>();
  const onUnreadable =
    options.onUnreadable ??
    ((report: UnreadableReport) =>
      console.warn(
        `[takedesk] ${report.method} ${report.path}: skipped ${report.skipped.length} unreadable item(s)`,
        JSON.stringify(report.skipped),
      ));

  // One got instance per client: its own retry (decided per call by `retryDelay`), HTTP errors as HTTPError.
  const http = got.extend({
    headers: { accept: 'application/json' },
    responseType: 'text',
    // Off: the token travels in x-access-token, which got would carry to any host a redirect names, and the
    // spec has no redirects; a 3xx is read as an answer (HTTP_3xx) so the token only reaches the endpoint called.
    followRedirect: false,
    timeout: { request: timeoutMs },
    ...(options.ca ? { https: { certificateAuthority: options.ca } } : {}),
  });

  async function send<T>(call: Call<T>, trace: Trace = { lostResponse: false }): Promise<T> {
    const url = targetOf(call.path);
    const headers: Record<string, string> = {};
    if (call.auth !== false) {
      const token = await options.getToken();
      if (token) headers['x-access-token'] = token;
    }
    try {
      const response = await http(url, {
        method: call.method,
        headers,
        ...(call.searchParams ? { searchParams: call.searchParams } : {}),
        ...(call.json !== undefined ? { json: call.json } : {}),
        retry: {
          limit: policy.retries,
          // Our rules replace got's lists (which would resend a PUT after any answer, or skip a cut body).
          enforceRetryRules: false,
          calculateDelay: ({ attemptCount, error }) => retryDelay(call, trace, attemptCount, error),
        },
      });
      return interpret(response, call);
    } catch (error) {
      if (error instanceof HTTPError) return interpret(error.response as Response<string>, call);
      const failure = classify(error);
      if (!failure) throw error;
      if (failure.maybeDelivered) trace.lostResponse = true;
      if (call.operation === 'createProject' && failure.maybeDelivered) {
        throw createOutcomeUnknown(call, failure.type);
      }
      throw transportError(failure, call);
    }
  }

  /**
   * Our retry policy, as got's `calculateDelay`: 0 stops. GETs retry on network errors, 5xx and 429 (honouring
   * Retry-After); a write is resent only when no answer came back, never a create. The wait is ours
   * (`policy.sleep`, so tests run on a virtual clock); got then retries at once (1 ms, its shortest delay).
   */
  async function retryDelay(
    call: Call<unknown>,
    trace: Trace,
    attemptCount: number,
    error: RequestError,
  ): Promise<number> {
    let delayMs: number;
    let reason: string;
    if (error instanceof HTTPError) {
      const status = error.response.statusCode;
      if (call.method !== 'GET' || !(status >= 500 || status === 429)) return 0;
      if (attemptCount > policy.retries) return 0;
      const asked = parseRetryAfter(
        headerText(error.response.headers['retry-after']),
        policy.now(),
        policy.maxRetryAfterMs,
      );
      delayMs = asked ?? backoffDelay(policy, attemptCount - 1);
      reason = `HTTP_${status}`;
    } else {
      const failure = classify(error);
      if (!failure) return 0;
      if (failure.maybeDelivered) trace.lostResponse = true;
      // A write is sent again only if no answer came back: an answer, even cut short, means it was processed.
      // A refused certificate is refused again: no retry.
      const mayResend =
        !CERTIFICATE_CODES.test(failure.code) &&
        (call.method === 'GET' ||
          (call.resend !== false && options.resendWrites !== false && !failure.responded));
      if (!mayResend || attemptCount > policy.retries) return 0;
      delayMs = backoffDelay(policy, attemptCount - 1);
      reason = failure.type;
    }
    policy.onRetry?.({ method: call.method, path: call.path, attempt: attemptCount, delayMs, reason });
    await policy.sleep(delayMs);
    return 1;
  }

  /**
   * The URL a call goes to, refused (VALIDATION_ERROR) unless its path is exactly the endpoint's, as built:
   * the URL parser must not resolve a dot segment or find a query or fragment in it, so the token only ever
   * goes to the endpoint the call names (defence in depth behind `endpoint`).
   */
  function targetOf(path: string): URL {
    let url: URL;
    try {
      url = new URL(baseUrl + path);
    } catch {
      throw new ApiClientError('VALIDATION_ERROR', `The service address ${baseUrl} is not a valid URL.`);
    }
    if (url.pathname !== basePath + path || url.search !== '' || url.hash !== '') throw invalidId();
    return url;
  }

  function interpret<T>(response: Response<string>, call: Call<T>): T {
    const status = response.statusCode;
    // A 429's or a gateway's Retry-After travels with the error, so a caller that paces itself (the watcher, the
    // decisions store) can honour it.
    const retryAfterMs =
      status === 429 || status === 502 || status === 503 || status === 504
        ? (parseRetryAfter(headerText(response.headers['retry-after']), policy.now(), 3_600_000) ?? undefined)
        : undefined;
    if (status >= 200 && status < 300) {
      // Lists are read item by item: an unreadable item is skipped, logged and counted, never fatal.
      const parsed = readAnswer(call.schema, parseJson(response.body));
      if (parsed.success) {
        if (parsed.skipped.length) {
          onUnreadable({
            operation: call.operation,
            method: call.method,
            path: call.path,
            skipped: parsed.skipped,
          });
        }
        return parsed.data;
      }
      throw new ApiClientError(
        'UNEXPECTED_RESPONSE',
        `The service answered ${call.method} ${call.path} with data Takedesk does not understand.`,
        { status, details: { operation: call.operation, issues: parsed.issues } },
      );
    }
    const body = ErrorBody.safeParse(parseJson(response.body));
    if (body.success) throw ServiceError.fromBody(body.data, status, call.operation, retryAfterMs);
    throw new ApiClientError(
      `HTTP_${status}`,
      `The service answered ${call.method} ${call.path} with HTTP ${status} and no error description.`,
      { status, details: { operation: call.operation }, retryAfterMs },
    );
  }

  function transportError(failure: Failure, call: Call<unknown>): ApiClientError {
    const message =
      failure.type === 'TIMEOUT'
        ? `The service at ${origin} did not answer ${call.method} ${call.path} within ${Math.round(timeoutMs / 100) / 10} s.`
        : CERTIFICATE_CODES.test(failure.code)
          ? `The service at ${origin} presented a certificate Takedesk does not trust (${failure.code}).`
          : `Could not reach the service at ${origin} (${failure.code}).`;
    return new ApiClientError(failure.type, message, {
      details: { operation: call.operation, code: failure.code, maybeDelivered: failure.maybeDelivered },
    });
  }

  function createOutcomeUnknown(
    call: Call<unknown>,
    cause: CreateOutcomeUnknownDetails['cause'],
  ): ApiClientError {
    const body = call.json as { title?: unknown } | undefined;
    const details: CreateOutcomeUnknownDetails = {
      title: typeof body?.title === 'string' ? body.title : '',
      sentAt: sentAt.get(call) ?? isoNoZone(new Date()),
      cause,
    };
    return new ApiClientError(
      'CREATE_OUTCOME_UNKNOWN',
      cause === 'UNEXPECTED_RESPONSE'
        ? 'The service confirmed the new project in a form Takedesk cannot read. It was probably created: check for it before sending again.'
        : 'The connection was lost before the service confirmed the new project. It may have been created: check for it before sending again.',
      { details: { ...details } },
    );
  }

  /** Runs a write; when its first answer was lost and the retry meets "already done", `reconcile` may claim it. */
  async function write<T>(
    call: Call<T>,
    reconcile: (error: ServiceError) => Promise<T | undefined>,
  ): Promise<T> {
    const trace: Trace = { lostResponse: false };
    try {
      return await send(call, trace);
    } catch (error) {
      if (trace.lostResponse && isServiceError(error)) {
        const claimed = await reconcile(error);
        if (claimed !== undefined) return claimed;
      }
      throw error;
    }
  }

  /**
   * GET endpoints of the live pages (docs/service.md#categories-attributes-and-tracks) a service may lack: a
   * 404 route falls back to built-in lists.
   */
  async function withFallback<T>(run: () => Promise<T>, fallback: () => T | undefined): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (isMissingRoute(error)) {
        const value = fallback();
        if (value !== undefined) return value;
      }
      throw error;
    }
  }

  let onceClient: ApiClient | undefined;
  const client: ApiClient = {
    baseUrl,

    once() {
      if (options.resendWrites === false) return client;
      return (onceClient ??= createApiClient({ ...options, resendWrites: false }));
    },

    listProjects(query = {}) {
      return send({
        operation: 'listProjects',
        method: 'GET',
        path: '/projects',
        searchParams: compact({ ...query }),
        schema: ListProjectsResponse,
      });
    },

    async getProject(id) {
      return send({
        operation: 'getProject',
        method: 'GET',
        path: endpoint`/projects/${id}`,
        schema: Project,
      });
    },

    async createProject(body) {
      const call: Call<Project> = {
        operation: 'createProject',
        method: 'POST',
        path: '/projects',
        json: prepareProjectBody(body),
        schema: Project,
        resend: false,
      };
      sentAt.set(call, isoNoZone(new Date()));
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
      return write(
        {
          operation: 'cancelProject',
          method: 'PUT',
          path: endpoint`/projects/${id}`,
          json: { status: 'canceled', reason, reasonCode },
          schema: CancelProjectResponse,
        },
        async (error) => {
          if (error.type !== 'PROJECT_ALREADY_CANCELED') return undefined;
          const project = await client.getProject(id);
          if (project.status !== 'canceled') return undefined;
          const { services: _services, ...fields } = project;
          return CancelProjectResponse.parse({ ...fields, reason, reasonCode });
        },
      );
    },

    search(query) {
      return send({
        operation: 'search',
        method: 'GET',
        path: '/search',
        searchParams: compact({ ...query }),
        schema: SearchResponse,
      });
    },

    async listDeliverables(projectId) {
      return send({
        operation: 'listDeliverables',
        method: 'GET',
        path: endpoint`/deliverables/project/${projectId}`,
        schema: DeliverablesResponse,
      });
    },

    async approveAll(projectId) {
      return write(
        {
          operation: 'approveAll',
          method: 'PUT',
          path: endpoint`/deliverables/project/${projectId}`,
          json: { status: 'approved' },
          schema: ApproveAllResponse,
        },
        async (error) => {
          if (error.type !== 'PROJECT_ALREADY_APPROVED') return undefined;
          const deliverables = await client.listDeliverables(projectId);
          return deliverables.map(({ urls: _urls, ...summary }) => summary);
        },
      );
    },

    async getDeliverable(id) {
      return send({
        operation: 'getDeliverable',
        method: 'GET',
        path: endpoint`/deliverables/${id}`,
        schema: Deliverable,
      });
    },

    async approveDeliverable(id) {
      return write(
        {
          operation: 'approveDeliverable',
          method: 'PUT',
          path: endpoint`/deliverables/${id}`,
          json: { status: 'approved' },
          schema: DeliverableSummary,
        },
        async (error) => {
          if (error.type !== 'DELIVERABLE_ALREADY_APPROVED') return undefined;
          return client.getDeliverable(id);
        },
      );
    },

    async rejectDeliverable(id, params = {}) {
      const fields = compact({ ...params });
      return write(
        {
          operation: 'rejectDeliverable',
          method: 'PUT',
          path: endpoint`/deliverables/${id}`,
          json: { status: 'rejected', ...fields },
          schema: RejectResponse,
        },
        async (error) => {
          if (error.type !== 'DELIVERABLE_ALREADY_REJECTED') return undefined;
          const deliverable = await client.getDeliverable(id);
          return RejectResponse.parse({ ...deliverable, ...fields });
        },
      );
    },

    async selectWinner(id) {
      return write(
        {
          operation: 'selectWinner',
          method: 'PUT',
          path: endpoint`/deliverables/${id}`,
          json: { status: 'winner' },
          schema: DeliverableSummary,
        },
        async (error) => {
          // Someone else's winner must stay an error; only "ours is now the winner" is our success.
          if (error.type !== 'WINNER_ALREADY_SELECTED') return undefined;
          const deliverable = await client.getDeliverable(id);
          return deliverable.status === 'winner' ? deliverable : undefined;
        },
      ).catch(refusedWinner);
    },

    async listVersions(id) {
      return send({
        operation: 'listVersions',
        method: 'GET',
        path: endpoint`/revisions/${id}/versions`,
        schema: VersionsResponse,
      });
    },

    async createRevision(id, body) {
      const json = { ...compact({ ...body }), checkTalent: body.checkTalent ?? false };
      return write(
        {
          operation: 'createRevision',
          method: 'POST',
          path: endpoint`/revisions/${id}`,
          json,
          schema: RevisionResponse,
          // A revision can cost a fee: never resent here. A lost answer reaches the decisions store as
          // maybe-delivered, which reads the take before anything is sent again (review/decisions.ts).
          resend: false,
        },
        async (error) => {
          if (error.type !== 'DELIVERABLE_PENDING_REVISION') return undefined;
          const deliverable = await client.getDeliverable(id);
          if (deliverable.status !== 'revisionRequested') return undefined;
          return RevisionResponse.parse({ ...deliverable, ...json });
        },
      );
    },

    listCategories() {
      return withFallback(
        () =>
          send({
            operation: 'listCategories',
            method: 'GET',
            path: '/categories',
            schema: CategoriesResponse,
          }),
        () => fallbacks.categories(),
      );
    },

    getAttributes(categoryId) {
      return withFallback(
        () =>
          send({
            operation: 'getAttributes',
            method: 'GET',
            path: endpoint`/categories/${categoryId}/attributes`,
            schema: CategoryAttributesResponse,
          }),
        () => fallbacks.attributes(categoryId),
      );
    },

    getAttributeValues(categoryId, attributeId) {
      return withFallback(
        () =>
          send({
            operation: 'getAttributeValues',
            method: 'GET',
            // Singular `attribute` on the live service (docs/service.md#categories-attributes-and-tracks).
            path: endpoint`/categories/${categoryId}/attribute/${attributeId}/values`,
            schema: AttributeValuesResponse,
          }),
        () => fallbacks.attributeValues(categoryId, attributeId),
      );
    },

    listTracks(query = {}) {
      return withFallback(
        () =>
          send({
            operation: 'listTracks',
            method: 'GET',
            path: '/tracks',
            searchParams: compact({ ...query }),
            schema: TracksResponse,
          }),
        () => fallbacks.tracks(query),
      );
    },

    getTrack(id) {
      return withFallback(
        () => send({ operation: 'getTrack', method: 'GET', path: endpoint`/tracks/${id}`, schema: Track }),
        () => fallbacks.track(Number(id)),
      );
    },

    quote(body) {
      return send({
        operation: 'quote',
        method: 'POST',
        path: '/quote',
        json: prepareServices(body),
        schema: QuoteResponse,
      });
    },

    signIn(email, password) {
      return send({
        operation: 'signIn',
        method: 'POST',
        path: '/users/auth',
        json: { email, password },
        schema: SignInResponse,
        auth: false,
      });
    },

    async findRecentProject(title, { since, body } = {}) {
      // Timestamps compare as instants: the live service may write them zoned or with a space (issue 14).
      const after = since === undefined ? undefined : serviceTime(since);
      const timeOf = (item: ProjectListItem) => {
        const t = serviceTime(item.created);
        return Number.isNaN(t) ? -Infinity : t;
      };
      // A zone-less date may be another zone's wall clock (the docs state no zone): near `since`, either way,
      // the time cannot tell a new project from an older one of the same title. The body can.
      const uncertain = (item: ProjectListItem) =>
        after !== undefined && !isZoned(item.created) && Math.abs(timeOf(item) - after) < MAX_ZONE_OFFSET_MS;
      const candidates: ProjectListItem[] = [];
      let firstPageRows = 0;
      for (let page = 1; page <= FINDER_MAX_PAGES; page++) {
        const result = await client.listProjects({ titleQuery: title, page, pageSize: FINDER_PAGE_SIZE });
        if (page === 1) firstPageRows = result.projects.length;
        for (const item of result.projects) {
          if (item.title !== title) continue;
          if (after !== undefined && !(timeOf(item) >= after) && !(body && uncertain(item))) continue;
          candidates.push(item);
        }
        // `total` counts all of the user's projects, not the matches, so a short page is the end (short of what
        // was asked, or of the service's own page size when it keeps to a smaller one).
        if (!pageMayContinue(result.projects.length, FINDER_PAGE_SIZE, firstPageRows)) break;
      }
      candidates.sort((a, b) => timeOf(b) - timeOf(a));
      for (const item of candidates) {
        if (!body || !uncertain(item)) return client.getProject(item.id);
        const project = await client.getProject(item.id);
        if (!contradicts(project, body)) return project;
      }
      return null;
    },
  };
  return client;
}

/** How far a zone-less date may be off: UTC-12 to UTC+14 either way, with some clock skew. */
const MAX_ZONE_OFFSET_MS = 15 * 3_600_000;

/** Whether a service timestamp names its zone (`Z` or an offset). */
function isZoned(value: string | undefined): boolean {
  return value !== undefined && /(?:[zZ]|[+-]\d{2}:?\d{2})$/.test(value.trim());
}

/**
 * Whether a project read back differs from the create body in a field both carry: category, fulfilment,
 * remarks, and per service its language, voice and script. A field the answer leaves out proves nothing.
 */
function contradicts(project: Project, body: Record<string, unknown>): boolean {
  const differs = (read: unknown, sent: unknown) =>
    read !== undefined && read !== null && sent !== undefined && sent !== null && !sameValue(read, sent);
  if (differs(project.mainService, body.mainService)) return true;
  if (differs(project.fulfillmentType, body.fulfillmentType)) return true;
  if (
    differs(project.remarks?.trim() || undefined, (body.remarks as string | undefined)?.trim() || undefined)
  )
    return true;
  const sent = Array.isArray(body.services) ? (body.services as Array<Record<string, unknown>>) : [];
  return sent.some((service) => {
    const read = project.services.find((s) => s.subCategory === service.subCategory);
    if (!read) return project.services.length > 0;
    return (
      differs(read.language, service.language) ||
      differs(read.genderAndAge, service.genderAndAge) ||
      differs(read.script === undefined ? undefined : normalizeScript(read.script), scriptOf(service.script))
    );
  });
}

function scriptOf(script: unknown): unknown {
  return typeof script === 'string' || Array.isArray(script) ? normalizeScript(script as string) : undefined;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

interface Failure {
  type: 'NETWORK_UNREACHABLE' | 'TIMEOUT';
  code: string;
  /** Response headers had arrived (the body was cut). */
  responded: boolean;
  /** The service may have received and acted on the request. */
  maybeDelivered: boolean;
}

/** Sorts a got transport failure; anything else (a bug) is not ours to translate. */
function classify(error: unknown): Failure | null {
  if (!(error instanceof RequestError)) return null;
  const responded = error.response !== undefined;
  if (error instanceof TimeoutError) {
    return {
      type: 'TIMEOUT',
      code: `ETIMEDOUT:${error.event}`,
      responded,
      maybeDelivered: responded || !NOT_SENT_TIMEOUTS.has(error.event),
    };
  }
  const code = error.code || 'UNKNOWN';
  return {
    type: 'NETWORK_UNREACHABLE',
    code,
    responded,
    maybeDelivered: responded || !(NOT_SENT_CODES.has(code) || CERTIFICATE_CODES.test(code)),
  };
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

/** A route the service does not have (unknown-route 404), as opposed to a 404 the endpoint itself answered. */
function isMissingRoute(error: unknown): boolean {
  if (isServiceError(error)) return error.type === 'NOT_FOUND';
  return error instanceof ApiClientError && error.type === 'HTTP_404';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The base URL's own path (a service may live under a prefix), without a trailing slash. */
function safePathname(url: string): string {
  try {
    return new URL(url).pathname.replace(/\/+$/, '');
  } catch {
    return '';
  }
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** Drops undefined/null/'' so the service applies its own defaults. */
function compact<T extends Record<string, unknown>>(query: T): Record<string, string | number> {
  // fromEntries defines own properties: a `__proto__` key stays a key, never a prototype (issue 13, item 8).
  return Object.fromEntries(
    Object.entries(query)
      .filter(([, value]) => value !== undefined && value !== null && value !== '')
      .map(([key, value]) => [key, typeof value === 'number' ? value : String(value)]),
  );
}

/** Scripts go out in the array form; everything else is left for the service to judge. */
function prepareServices<T extends object>(body: T): T {
  const services = (body as { services?: unknown }).services;
  if (!Array.isArray(services)) return body;
  return {
    ...body,
    services: services.map((service: unknown) => {
      if (
        service &&
        typeof service === 'object' &&
        'script' in service &&
        typeof service.script === 'string'
      ) {
        return { ...service, script: normalizeScript(service.script) };
      }
      return service;
    }),
  };
}

/** `remarks` always present ('' when none): the service may answer REMARKS_REQUIRED without it. */
function prepareProjectBody(body: CreateProjectRequest): Record<string, unknown> {
  const record = body as Record<string, unknown>;
  const remarks = record['remarks'] === undefined || record['remarks'] === null ? '' : record['remarks'];
  return prepareServices({ ...record, remarks });
}
