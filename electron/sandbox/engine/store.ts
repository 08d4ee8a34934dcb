// The engine's state store: reads of the sandbox state by id and owner, the project status rule, status
// changes with their date, and when owed work falls due. Every other engine unit works through it.
import { isoNoZone } from '../../../shared/api';
import type { ValidationIssue } from '../../../shared/api/validate-project';
import { SandboxError } from '../sandbox-error';
import type { DeliverableRecord, ProjectRecord } from '../state';
import type { EngineDeps } from './types';

/** Deliverable statuses that need nothing more from the client. */
export const SETTLED = new Set(['approved', 'winner', 'rejected']);

export type Json = Record<string, unknown>;

/** Throws the first validation issue as the service error it names. */
export function check(issues: ValidationIssue[]): void {
  const first = issues[0];
  if (first)
    throw new SandboxError(first.code, first.path ? `${first.path}: ${first.message}` : first.message);
}

/** An own property of a record keyed by ids (never one of Object.prototype's: `constructor`, `__proto__`...). */
export function ownValue<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

export function createStore(deps: EngineDeps) {
  const { catalog, now } = deps;
  const st = () => deps.state();

  function dueAt(): number | null {
    return deps.delivery === 'manual' ? null : now().getTime() + deps.delivery;
  }

  function findProject(id: string, userId: string): ProjectRecord {
    const projects = st().projects;
    const project = ownValue(projects, id);
    if (!project) throw new SandboxError('PROJECT_NO_EXIST', `Project ${id} does not exist.`);
    if (project.ownerId !== userId) throw new SandboxError('FORBIDDEN');
    return project;
  }

  function findDeliverable(id: string, userId: string): { d: DeliverableRecord; project: ProjectRecord } {
    const all = st().deliverables;
    const d = ownValue(all, id);
    const project = d ? ownValue(st().projects, d.projectId) : undefined;
    if (!d || !project) throw new SandboxError('DELIVERABLE_NO_EXIST', `Deliverable ${id} does not exist.`);
    if (project.ownerId !== userId) throw new SandboxError('FORBIDDEN');
    return { d, project };
  }

  function deliverablesOf(projectId: string): DeliverableRecord[] {
    return Object.values(st().deliverables).filter((d) => d.projectId === projectId);
  }

  /** Project status from its deliverables: completed once every deliverable is settled and nothing is owed. */
  function settle(project: ProjectRecord): void {
    if (project.status === 'canceled') return;
    const ds = deliverablesOf(project.id);
    const owed = st().work.some((w) => w.projectId === project.id && !w.failed);
    const done =
      !owed &&
      ds.length > 0 &&
      ds.every((d) => SETTLED.has(d.status)) &&
      ds.some((d) => d.status === 'approved' || d.status === 'winner');
    // Live shapes: a completed project stays completed while an approved take is revised (the live service allows
    // revisions after approval and its status list has no way back).
    const stays = deps.liveShapes !== undefined && project.status === 'completed';
    project.status = done || stays ? 'completed' : 'paid';
    for (const s of project.services) s.status = project.status;
  }

  /** Sets a deliverable's status and records when (the versions endpoint shows it outside live shapes). */
  function setStatus(d: DeliverableRecord, status: string): void {
    d.status = status;
    d.statusChanged = isoNoZone(now());
  }

  return { deps, catalog, now, st, dueAt, findProject, findDeliverable, deliverablesOf, settle, setStatus };
}

export type Store = ReturnType<typeof createStore>;
