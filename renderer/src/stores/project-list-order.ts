import type { ProjectListItem, Script } from '../../../shared/api';
import { serviceTime } from '../../../shared/api/schemas';

/**
 * Columns the projects list sorts by. The service documents no update time: "activity" is the latest the app has
 * seen (`lastActivity`), and the creation date where it has seen none.
 */
export type ProjectSortKey = 'activity' | 'created' | 'title' | 'status' | 'price';
export interface ProjectSort {
  key: ProjectSortKey;
  direction: 'asc' | 'desc';
}

/** The text of a script, whether one string or parts (`[{ "1": "…" }, …]`). */
function scriptText(script: Script | undefined): string {
  if (script === undefined) return '';
  if (typeof script === 'string') return script;
  return script.flatMap((part) => Object.values(part)).join('\n');
}

/**
 * What a search looks through in a project as listed: its title, its script text and its notes (the remarks
 * of the project and of each service, the brief's topic and keywords). Lower-cased once per project.
 */
export function searchableText(project: ProjectListItem): string {
  const parts = [project.title, project.remarks ?? ''];
  for (const service of project.services ?? []) {
    parts.push(
      scriptText(service.script),
      service.remarks ?? '',
      service.topic ?? '',
      service.keywords ?? '',
    );
  }
  return parts.join('\n').toLowerCase();
}

const searchCache = new WeakMap<ProjectListItem, string>();

/** Every word of the query appears somewhere in the project's title, script or notes (any order, any case). */
export function matchesSearch(project: ProjectListItem, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/u).filter(Boolean);
  if (words.length === 0) return true;
  let text = searchCache.get(project);
  if (text === undefined) {
    text = searchableText(project);
    searchCache.set(project, text);
  }
  return words.every((word) => text.includes(word));
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** The newest activity the app has seen on a project (ISO), when it has seen any. */
export type ActivityOf = (project: ProjectListItem) => string | undefined;

/** A project's last activity as an instant: the newest the app has seen, else when it was created; NaN: neither. */
export function lastActivityTime(project: ProjectListItem, activityOf: ActivityOf): number {
  const seen = serviceTime(activityOf(project));
  const created = serviceTime(project.created);
  if (!Number.isFinite(seen)) return created;
  return Number.isFinite(created) ? Math.max(seen, created) : seen;
}

/** A value of the column; missing ones sort last whichever the direction. */
function compareBy(
  key: ProjectSortKey,
  a: ProjectListItem,
  b: ProjectListItem,
  activityOf: ActivityOf,
): number | null {
  switch (key) {
    case 'activity':
      return lastActivityTime(a, activityOf) - lastActivityTime(b, activityOf);
    case 'title':
      return collator.compare(a.title, b.title);
    case 'status':
      if (a.status === undefined || b.status === undefined) return null;
      return collator.compare(a.status, b.status);
    case 'price':
      if (a.price === undefined || b.price === undefined) return null;
      return a.price - b.price;
    case 'created': {
      const ta = serviceTime(a.created);
      const tb = serviceTime(b.created);
      if (!Number.isFinite(ta) || !Number.isFinite(tb)) return null;
      return ta - tb;
    }
  }
}

function missing(key: ProjectSortKey, project: ProjectListItem, activityOf: ActivityOf): boolean {
  if (key === 'activity') return !Number.isFinite(lastActivityTime(project, activityOf));
  if (key === 'status') return project.status === undefined;
  if (key === 'price') return project.price === undefined;
  if (key === 'created') return !Number.isFinite(serviceTime(project.created));
  return false;
}

/**
 * The rows to show: those matching the search, in the order asked (ties keep the service's order); with no search
 * and no sort, the very array given, so the 10,000-row list costs nothing more.
 */
export function orderProjects(
  rows: readonly ProjectListItem[],
  query: string,
  sort: ProjectSort | null,
  activityOf: ActivityOf = () => undefined,
): readonly ProjectListItem[] {
  const found = query.trim() ? rows.filter((row) => matchesSearch(row, query)) : rows;
  if (!sort) return found;
  const sign = sort.direction === 'asc' ? 1 : -1;
  return found
    .map((row, index) => ({ row, index }))
    .sort((x, y) => {
      const gapX = missing(sort.key, x.row, activityOf);
      const gapY = missing(sort.key, y.row, activityOf);
      if (gapX !== gapY) return gapX ? 1 : -1;
      const order = gapX ? 0 : (compareBy(sort.key, x.row, y.row, activityOf) ?? 0);
      return order !== 0 ? sign * order : x.index - y.index;
    })
    .map(({ row }) => row);
}
