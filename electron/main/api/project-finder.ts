/**
 * Finding the project a create made when its answer could not be read: the newest project with exactly the title,
 * created at or after the moment the create went out, told apart from an older namesake by the body that was sent
 * when the service's zone-less dates cannot.
 */
import {
  normalizeScript,
  pageMayContinue,
  serviceTime,
  type Project,
  type ProjectListItem,
} from '../../../shared/api';
import type { ApiClient } from './client';

const FINDER_PAGE_SIZE = 100;
const FINDER_MAX_PAGES = 10;

/** The newest project titled `title` (see `ApiClient.findRecentProject`); null when there is none. */
export async function findRecentProject(
  client: Pick<ApiClient, 'listProjects' | 'getProject'>,
  title: string,
  { since, body }: { since?: string; body?: Record<string, unknown> } = {},
): Promise<Project | null> {
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
