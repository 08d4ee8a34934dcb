import { z } from 'zod';
import * as api from '../../shared/api';
import { ERROR_CATALOG, ERROR_CODES, statusesFor, type Operation } from '../../shared/api';

type Json = Record<string, unknown>;

/** Schemas published under components.schemas, generated from the shared zod contract. */
const COMPONENTS: Record<string, z.ZodType> = {
  CreateProjectBody: api.CreateProjectBody,
  Project: api.Project,
  CancelProjectBody: api.CancelProjectBody,
  CancelProjectResponse: api.CancelProjectResponse,
  ListProjectsResponse: api.ListProjectsResponse,
  Deliverable: api.Deliverable,
  DeliverablesResponse: api.DeliverablesResponse,
  DeliverableSummary: api.DeliverableSummary,
  DeliverableStatusBody: api.DeliverableStatusBody,
  RejectResponse: api.RejectResponse,
  ApproveAllBody: api.ApproveAllBody,
  ApproveAllResponse: api.ApproveAllResponse,
  RevisionBody: api.RevisionBody,
  RevisionResponse: api.RevisionResponse,
  VersionsResponse: api.VersionsResponse,
  SearchResponse: api.SearchResponse,
  CategoriesResponse: api.CategoriesResponse,
  CategoryAttributesResponse: api.CategoryAttributesResponse,
  AttributeValuesResponse: api.AttributeValuesResponse,
  Track: api.Track,
  TracksResponse: api.TracksResponse,
  QuoteBody: api.QuoteBody,
  QuoteResponse: api.QuoteResponse,
  SignInBody: api.SignInBody,
  SignInResponse: api.SignInResponse,
  ErrorBody: api.ErrorBody,
};

type QueryParam = [name: string, type: 'string' | 'number', description: string];

/** The paging parameters every paged listing takes. */
const PAGING: QueryParam[] = [
  ['page', 'number', 'default 1'],
  ['pageSize', 'number', 'default 20'],
];

interface Endpoint {
  method: 'get' | 'put' | 'post';
  path: string;
  operation: Operation;
  summary: string;
  body?: string;
  response: string;
  scope?: string;
  query?: QueryParam[];
  noAuth?: boolean;
}

const ENDPOINTS: Endpoint[] = [
  {
    method: 'post',
    path: '/projects',
    operation: 'createProject',
    summary: 'Create project',
    body: 'CreateProjectBody',
    response: 'Project',
  },
  {
    method: 'get',
    path: '/projects',
    operation: 'listProjects',
    summary: 'Get all projects',
    response: 'ListProjectsResponse',
    query: [
      ...PAGING,
      ['titleQuery', 'string', 'title filter (case-insensitive substring)'],
      ['category', 'string', 'mainService filter'],
    ],
  },
  {
    method: 'get',
    path: '/projects/{id}',
    operation: 'getProject',
    summary: 'Get project',
    response: 'Project',
  },
  {
    method: 'put',
    path: '/projects/{id}',
    operation: 'cancelProject',
    summary: 'Cancel project',
    body: 'CancelProjectBody',
    response: 'CancelProjectResponse',
  },
  {
    method: 'get',
    path: '/search',
    operation: 'search',
    summary: 'Search samples',
    response: 'SearchResponse',
    scope: 'search',
    query: [
      ['categoryId', 'string', 'required'],
      ['currency', 'string', 'default USD; USD, EUR, GBP, CAD, AUD'],
      ...PAGING,
      ['language', 'string', 'e.g. eng-us'],
      ['genderAndAge', 'string', 'e.g. teenageGirl'],
      ['turnAroundTimeDays', 'number', 'maximum turnaround in days'],
      ['minimumPrice', 'number', 'on the quoted price'],
      ['maximumPrice', 'number', 'on the quoted price'],
      ['units', 'number', 'units to quote for'],
      ['unitType', 'string', 'default units; seconds, minutes, hours, units'],
      ['purpose', 'string', 'purpose id'],
    ],
  },
  {
    method: 'get',
    path: '/deliverables/project/{projectId}',
    operation: 'listDeliverables',
    summary: 'Get deliverables of a project',
    response: 'DeliverablesResponse',
  },
  {
    method: 'put',
    path: '/deliverables/project/{projectId}',
    operation: 'approveAll',
    summary: 'Approve all pending deliverables',
    body: 'ApproveAllBody',
    response: 'ApproveAllResponse',
  },
  {
    method: 'get',
    path: '/deliverables/{id}',
    operation: 'getDeliverable',
    summary: 'Get single deliverable',
    response: 'Deliverable',
  },
  {
    method: 'put',
    path: '/deliverables/{id}',
    operation: 'approveDeliverable',
    summary: 'Approve, reject or select as winner (by body status)',
    body: 'DeliverableStatusBody',
    response: 'RejectResponse',
  },
  {
    method: 'get',
    path: '/revisions/{deliverableId}/versions',
    operation: 'listVersions',
    summary: 'Get deliverable versions',
    response: 'VersionsResponse',
    scope: 'versions',
  },
  {
    method: 'post',
    path: '/revisions/{deliverableId}',
    operation: 'createRevision',
    summary: 'Create revision',
    body: 'RevisionBody',
    response: 'RevisionResponse',
  },
  {
    method: 'get',
    path: '/categories',
    operation: 'listCategories',
    summary: 'List categories',
    response: 'CategoriesResponse',
  },
  {
    method: 'get',
    path: '/categories/{id}/attributes',
    operation: 'getAttributes',
    summary: 'Attributes of a category',
    response: 'CategoryAttributesResponse',
  },
  {
    method: 'get',
    path: '/categories/{id}/attribute/{attributeId}/values',
    operation: 'getAttributeValues',
    summary: 'Values of an attribute',
    response: 'AttributeValuesResponse',
  },
  {
    method: 'get',
    path: '/tracks',
    operation: 'listTracks',
    summary: 'Music library',
    response: 'TracksResponse',
    query: [
      ['typeId', 'string', 'track type, e.g. mood'],
      ['subtypeId', 'string', 'track sub type, e.g. casual'],
    ],
  },
  { method: 'get', path: '/tracks/{id}', operation: 'getTrack', summary: 'One track', response: 'Track' },
  {
    method: 'post',
    path: '/quote',
    operation: 'quote',
    summary: 'Price of a project body',
    body: 'QuoteBody',
    response: 'QuoteResponse',
  },
  {
    method: 'post',
    path: '/users/auth',
    operation: 'signIn',
    summary: 'Sign in (email + password -> token)',
    body: 'SignInBody',
    response: 'SignInResponse',
    noAuth: true,
  },
];

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  return rest;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The OpenAPI 3.1 document of the sandbox, generated from the shared zod schemas and the error catalog. */
export function buildOpenApi(serverUrl: string): Json {
  const schemas: Json = {};
  for (const [name, schema] of Object.entries(COMPONENTS)) {
    schemas[name] = schemaOf(schema, name.endsWith('Body') ? 'input' : 'output');
  }
  const paths: Record<string, Json> = {};
  for (const e of ENDPOINTS) {
    const params = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: m[1] === 'id' && e.path.startsWith('/tracks') ? 'integer' : 'string' },
    }));
    const query = (e.query ?? []).map(([name, type, description]) => ({
      name,
      in: 'query',
      required: description === 'required',
      description,
      schema: { type },
    }));
    const responses: Json = {
      200: { description: 'OK', content: { 'application/json': { schema: ref(e.response) } } },
    };
    const codes = ERROR_CODES.filter((code) => ERROR_CATALOG[code].operations.includes(e.operation));
    const byStatus = new Map<number, string[]>();
    for (const code of codes) {
      const { http, body } = statusesFor(code, e.operation);
      if (http === 0) continue;
      byStatus.set(http, [
        ...(byStatus.get(http) ?? []),
        body === http ? code : `${code} (body status ${body})`,
      ]);
    }
    for (const [status, list] of byStatus) {
      responses[status] = {
        description: list.join(', '),
        content: { 'application/json': { schema: ref('ErrorBody') } },
      };
    }
    paths[e.path] ??= {};
    paths[e.path]![e.method] = {
      operationId: e.operation,
      summary: e.summary,
      ...(e.noAuth ? { security: [] } : e.scope ? { security: [{ accessToken: [e.scope] }] } : {}),
      parameters: [...params, ...query],
      ...(e.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: ref(e.body) } } } }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Creative Audio Projects (Takedesk sandbox)',
      version: 'FINAL-1.0.0',
      description:
        'The service interface as the Takedesk sandbox serves it. Scopes are sandbox choices: "search" and "versions". Media URLs (/media/<key>.<ext>) need no token.',
    },
    servers: [{ url: serverUrl }],
    components: {
      schemas,
      securitySchemes: { accessToken: { type: 'apiKey', in: 'header', name: 'x-access-token' } },
    },
    security: [{ accessToken: [] }],
    paths,
  };
}
