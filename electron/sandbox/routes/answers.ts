// The HTTP layer's plain pieces: each operation's 500 code, the error answer with catalog statuses, the body
// limit, and reading a body or a query the same way on every route.
import type { Context } from 'hono';
import { ERROR_CATALOG, isErrorCode, statusesFor, type Operation } from '../../../shared/api';
import { SandboxError } from '../sandbox-error';
import type { Json } from './deps';

/**
 * The 500 code each operation answers when it fails (and when a fault makes it fail). Tracks and sign-in
 * have none in the spec or the facts, so errorRate leaves them alone.
 */
export const FAILURE_CODES: Partial<Record<Operation, string>> = {
  createProject: 'PROJECT_NOT_CREATED',
  listProjects: 'NOT_PROJECTS_INFO',
  getProject: 'NOT_PROJECT_INFO',
  cancelProject: 'ERROR_CANCELING_PROJECT',
  search: 'ERROR_GETTING_SEARCH_RESULTS',
  listDeliverables: 'NOT_DELIVERABLES_INFO',
  approveAll: 'ERROR_APPROVING_PROJECT_DELIVERABLES',
  getDeliverable: 'ERROR_GETTING_DELIVERABLE',
  approveDeliverable: 'ERROR_APPROVING_DELIVERABLE',
  rejectDeliverable: 'ERROR_REJECTING_DELIVERABLE',
  selectWinner: 'ERROR_SELECTING_WINNER',
  listVersions: 'ERROR_GETTINT_VERSIONS',
  createRevision: 'ERROR_CREATING_REVISION',
  listCategories: 'NOT_CATEGORIES_INFO',
  getAttributes: 'NOT_CATEGORIES_ATTRIBUTES',
  getAttributeValues: 'NOT_ATTRIBUTES__VALUES',
  quote: 'PROJECT_NOT_QUOTED',
};

/** The error body and heading status for a code in an operation (catalog statuses; 422 for unknown codes). */
export function errorResponse(type: string, operation: Operation | undefined, message?: string): Response {
  const known = isErrorCode(type);
  const { http, body } = known ? statusesFor(type, operation) : { http: 422, body: 422 };
  const text = message ?? (known ? ERROR_CATALOG[type].message : type);
  return Response.json({ status: body, type, message: text }, { status: http });
}

/**
 * Largest request body read (sandbox choice, README): bytes are counted as they arrive, chunked bodies
 * too, and reading stops at the limit with BODY_TOO_LARGE 413. The largest valid project is far smaller.
 */
export const MAX_BODY_BYTES = 1024 * 1024;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function asObject(value: unknown): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SandboxError('BODY_WRONG_TYPE', 'The body must be a JSON object.');
  }
  return value as Json;
}

export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new SandboxError('INVALID_JSON', 'The request body is not valid JSON.');
  }
}

/** The query as an object (first value of each key); no prototype, so `?__proto__=` or `?constructor=` are plain keys. */
export function queryObject(c: Context): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const [key, value] of new URL(c.req.url).searchParams) if (!Object.hasOwn(out, key)) out[key] = value;
  return out;
}
