/**
 * The endpoint table: one declarative entry per service operation (docs/service.md#endpoints), saying how its
 * arguments become a request — method, path (ids checked and encoded), query, body and the schema its answer is
 * read with. How a call is sent, retried and read is the transport's (`transport.ts`).
 */
import type { z } from 'zod';
import {
  ApproveAllResponse,
  AttributeValuesResponse,
  CancelProjectResponse,
  CategoriesResponse,
  CategoryAttributesResponse,
  Deliverable,
  DeliverablesResponse,
  DeliverableSummary,
  isSafeId,
  ListProjectsResponse,
  normalizeScript,
  Project,
  QuoteResponse,
  RejectResponse,
  RevisionResponse,
  SearchResponse,
  SignInResponse,
  Track,
  TracksResponse,
  VersionsResponse,
  type CancelProjectBody,
  type CreateProjectBodyInput,
  type ListProjectsParams,
  type QuoteBody,
  type RejectDeliverableBody,
  type RevisionBody,
  type SearchParams,
  type TracksParams,
} from '../../../shared/api';
import { invalidId, type Call } from './transport';

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

/** Lets each entry's answer type follow from its schema. */
const call = <T>(entry: Call<T>): Call<T> => entry;

export const endpoints = {
  listProjects: (query: ListProjectsParams = {}) =>
    call({
      operation: 'listProjects',
      method: 'GET',
      path: '/projects',
      searchParams: compact({ ...query }),
      schema: ListProjectsResponse,
    }),

  getProject: (id: string) =>
    call({ operation: 'getProject', method: 'GET', path: endpoint`/projects/${id}`, schema: Project }),

  createProject: (body: CreateProjectRequest) =>
    call({
      operation: 'createProject',
      method: 'POST',
      path: '/projects',
      json: prepareProjectBody(body),
      schema: Project,
      resend: false,
    }),

  cancelProject: (id: string, { reason, reasonCode }: CancelParams) =>
    call({
      operation: 'cancelProject',
      method: 'PUT',
      path: endpoint`/projects/${id}`,
      json: { status: 'canceled', reason, reasonCode },
      schema: CancelProjectResponse,
    }),

  search: (query: SearchParams) =>
    call({
      operation: 'search',
      method: 'GET',
      path: '/search',
      searchParams: compact({ ...query }),
      schema: SearchResponse,
    }),

  listDeliverables: (projectId: string) =>
    call({
      operation: 'listDeliverables',
      method: 'GET',
      path: endpoint`/deliverables/project/${projectId}`,
      schema: DeliverablesResponse,
    }),

  approveAll: (projectId: string) =>
    call({
      operation: 'approveAll',
      method: 'PUT',
      path: endpoint`/deliverables/project/${projectId}`,
      json: { status: 'approved' },
      schema: ApproveAllResponse,
    }),

  getDeliverable: (id: string) =>
    call({
      operation: 'getDeliverable',
      method: 'GET',
      path: endpoint`/deliverables/${id}`,
      schema: Deliverable,
    }),

  approveDeliverable: (id: string) =>
    call({
      operation: 'approveDeliverable',
      method: 'PUT',
      path: endpoint`/deliverables/${id}`,
      json: { status: 'approved' },
      schema: DeliverableSummary,
    }),

  rejectDeliverable: (id: string, params: RejectParams = {}) =>
    call({
      operation: 'rejectDeliverable',
      method: 'PUT',
      path: endpoint`/deliverables/${id}`,
      json: { status: 'rejected', ...compact({ ...params }) },
      schema: RejectResponse,
    }),

  selectWinner: (id: string) =>
    call({
      operation: 'selectWinner',
      method: 'PUT',
      path: endpoint`/deliverables/${id}`,
      json: { status: 'winner' },
      schema: DeliverableSummary,
    }),

  listVersions: (id: string) =>
    call({
      operation: 'listVersions',
      method: 'GET',
      path: endpoint`/revisions/${id}/versions`,
      schema: VersionsResponse,
    }),

  createRevision: (id: string, body: RevisionParams) =>
    call({
      operation: 'createRevision',
      method: 'POST',
      path: endpoint`/revisions/${id}`,
      json: { ...compact({ ...body }), checkTalent: body.checkTalent ?? false },
      schema: RevisionResponse,
      // A revision can cost a fee: never resent here. A lost answer reaches the decisions store as
      // maybe-delivered, which reads the take before anything is sent again (review/decisions.ts).
      resend: false,
    }),

  listCategories: () =>
    call({ operation: 'listCategories', method: 'GET', path: '/categories', schema: CategoriesResponse }),

  getAttributes: (categoryId: string) =>
    call({
      operation: 'getAttributes',
      method: 'GET',
      path: endpoint`/categories/${categoryId}/attributes`,
      schema: CategoryAttributesResponse,
    }),

  getAttributeValues: (categoryId: string, attributeId: string) =>
    call({
      operation: 'getAttributeValues',
      method: 'GET',
      // Singular `attribute` on the live service (docs/service.md#categories-attributes-and-tracks).
      path: endpoint`/categories/${categoryId}/attribute/${attributeId}/values`,
      schema: AttributeValuesResponse,
    }),

  listTracks: (query: TracksParams = {}) =>
    call({
      operation: 'listTracks',
      method: 'GET',
      path: '/tracks',
      searchParams: compact({ ...query }),
      schema: TracksResponse,
    }),

  getTrack: (id: number | string) =>
    call({ operation: 'getTrack', method: 'GET', path: endpoint`/tracks/${id}`, schema: Track }),

  quote: (body: QuoteRequest) =>
    call({
      operation: 'quote',
      method: 'POST',
      path: '/quote',
      json: prepareServices(body),
      schema: QuoteResponse,
    }),

  signIn: (email: string, password: string) =>
    call({
      operation: 'signIn',
      method: 'POST',
      path: '/users/auth',
      json: { email, password },
      schema: SignInResponse,
      auth: false,
    }),
};

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

/** Drops undefined/null/'' so the service applies its own defaults. */
export function compact<T extends Record<string, unknown>>(query: T): Record<string, string | number> {
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
