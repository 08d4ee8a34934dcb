/**
 * Live shapes (`liveShapes` / `--live-shapes`, issue 14): the sandbox answers as the live service is documented
 * to (docs/service.md#beyond-the-interface-text) where the interface is silent, so the client's tolerant
 * reading is exercised for real.
 * The engine keeps the state; this module only reshapes the JSON of successful answers.
 */
import type { Operation } from '../../shared/api';
import type { SandboxState } from './state';
import type { MediaDescriptor } from './engine';

type Json = Record<string, unknown>;

export interface LiveShaperDeps {
  state: () => SandboxState;
  now: () => Date;
}

/** Shown while every deliverable of a service waits for a pro: a status no list names (sandbox choice). */
export const LIVE_UNKNOWN_SERVICE_STATUS = 'inviting';
const PENDING = new Set(['unassigned', 'assigned']);

/** Deterministic small number from an id, to vary shapes between records. */
function variant(id: unknown, modulo: number): number {
  let h = 0;
  for (const ch of String(id)) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h % modulo;
}

/** The most rows a live-shaped page holds, whatever `pageSize` asks (no maximum is documented: expect one). */
export const LIVE_PAGE_SIZE_CAP = 50;

/** Zone offsets the live dates may carry, in minutes east of UTC (sandbox choice: one each side of UTC). */
const LIVE_OFFSETS = [120, -300];

/** `minutes` east of UTC as `+02:00` / `-05:00`. */
function offsetText(minutes: number): string {
  const abs = Math.abs(minutes);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * The spec's "2026-11-23T09:00:00" (UTC wall clock) spelled one of the live ways: with a space, with `Z`, with
 * `+00:00`, or as the same instant in another zone ("2026-11-23T11:00:00+02:00", "2026-11-23T04:00:00-05:00").
 */
export function liveDate(value: unknown, id: unknown): unknown {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(value)) return value;
  const pick = variant(id, 3 + LIVE_OFFSETS.length);
  switch (pick) {
    case 0:
      return value.replace('T', ' ');
    case 1:
      return `${value}Z`;
    case 2:
      return `${value}+00:00`;
    default: {
      const minutes = LIVE_OFFSETS[pick - 3]!;
      const wall = new Date(Date.parse(`${value}Z`) + minutes * 60_000).toISOString().slice(0, 19);
      return `${wall}${offsetText(minutes)}`;
    }
  }
}

/** Fields no spec lists, on every object. */
function extras(now: Date): Json {
  return { updatedAt: now.toISOString(), tags: [] };
}

/** Builds the reshaping of one operation's answer. */
export function createLiveShaper(deps: LiveShaperDeps) {
  const { state } = deps;

  function serviceStatus(projectId: string, service: Json): string {
    const project = state().projects[String(projectId)];
    if (project?.status === 'canceled') return 'rejected';
    const statuses = Object.values(state().deliverables)
      .filter((d) => d.projectId === projectId && d.serviceId === service.id)
      .map((d) => d.status);
    if (statuses.length === 0 || statuses.every((s) => s === 'unassigned'))
      return LIVE_UNKNOWN_SERVICE_STATUS;
    if (statuses.every((s) => s === 'approved' || s === 'winner' || s === 'rejected')) return 'approved';
    return 'assigned';
  }

  function project(p: Json, now: Date): Json {
    const out: Json = { ...p, ...extras(now), created: liveDate(p.created, p.id) };
    if (Array.isArray(p.services)) {
      out.services = p.services.map((s: Json) => {
        // The live pages show no units or unitType on a project's services.
        const { units: _units, unitType: _unitType, ...rest } = s;
        return { ...rest, ...extras(now), status: serviceStatus(String(p.id), s) };
      });
    }
    return out;
  }

  function deliverable(d: Json, index: number, now: Date): Json {
    const out: Json = { ...d, ...extras(now) };
    if (typeof d.status === 'string' && PENDING.has(d.status) && 'urls' in d) {
      // Not delivered: no files, as null or left out.
      if (index % 2 === 0) out.urls = null;
      else delete out.urls;
    }
    return out;
  }

  const each = (value: unknown, fn: (item: Json, index: number) => Json) =>
    Array.isArray(value) ? value.map((item: Json, i) => fn(item, i)) : value;

  return function shape(operation: Operation | undefined, result: unknown): unknown {
    if (!result || typeof result !== 'object') return result;
    const now = deps.now();
    const r = result as Json;
    const plain = (item: Json) => ({ ...item, ...extras(now) });
    switch (operation) {
      case 'createProject':
      case 'getProject':
      case 'cancelProject':
        return project(r, now);
      case 'listProjects':
        return { ...r, ...extras(now), projects: each(r.projects, (p) => project(p, now)) };
      case 'listDeliverables':
        return each(result, (d, i) => deliverable(d, i, now));
      case 'getDeliverable':
        return deliverable(r, 0, now);
      case 'listVersions': {
        const pending = typeof r.status === 'string' && PENDING.has(r.status);
        const versions = pending
          ? []
          : each(r.versions, (v) => ({
              ...plain(v),
              created: liveDate(v.created, `${String(r.id)}${v.created}`),
            }));
        return { ...plain(r), versions };
      }
      case 'search':
        return { ...plain(r), samples: each(r.samples, plain) };
      default:
        return Array.isArray(result) ? each(result, plain) : plain(r);
    }
  };
}

export type LiveShaper = ReturnType<typeof createLiveShaper>;

/** What seeding needs of the engine. */
export interface LiveSeedEngine {
  createProject(userId: string, body: unknown): { id: string };
  deliver(options: { all: boolean; projectId?: string }, key: (m: MediaDescriptor) => string): number;
  listDeliverables(userId: string, projectId: string, base: string): Array<Record<string, unknown>>;
  approveAll(userId: string, projectId: string, body: Record<string, unknown>): unknown;
  createRevision(userId: string, id: string, body: Record<string, unknown>): unknown;
}

/** Title of the project a fresh live-shaped sandbox starts with. */
export const LIVE_SEED_TITLE = 'Spring promo (revised after approval)';

/**
 * A fresh live-shaped sandbox starts with one project as the live service can have it: a booking whose takes were
 * all approved (so `completed`), then one of them revised on request and delivered again — still `completed`, with
 * a take ready for review. A client that drops completed projects never sees that take.
 */
export function seedRevisedAfterApproval(
  engine: LiveSeedEngine,
  userId: string,
  key: (m: MediaDescriptor) => string,
): string {
  const { id } = engine.createProject(userId, {
    title: LIVE_SEED_TITLE,
    mainService: 'voice_over',
    fulfillmentType: 'booking',
    services: [
      {
        subCategory: 'voice_over',
        language: 'eng-us',
        genderAndAge: 'youngAdultFemale',
        script: [{ part001: 'Spring is here.' }, { part002: 'Everything in store, a fifth off.' }],
      },
    ],
  });
  engine.deliver({ all: true, projectId: id }, key); // a pro accepted
  engine.deliver({ all: true, projectId: id }, key); // delivered
  engine.approveAll(userId, id, { status: 'approved' });
  const [first] = engine.listDeliverables(userId, id, '');
  engine.createRevision(userId, String(first!.id), {
    instructions: 'A little brighter on the second line, please.',
    revisionCode: 'quality_issues',
  });
  engine.deliver({ all: true, projectId: id }, key); // the revised take
  return id;
}
