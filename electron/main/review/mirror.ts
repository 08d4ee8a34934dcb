/**
 * The read mirror: every answer the app read from the service, kept per account in the embedded database, so what
 * was loaded can be read again while the service cannot be reached — also after a restart. Each row keeps when it
 * was read (`read_at`); an answer given from here carries that time as `asOf` ("as of 10:42").
 *
 * Kept per account (base URL + the account's identity, `profiles/account.ts`), never per profile row: two profiles
 * of one account share what was loaded, and another account's never shows. Rows are the service's answers as they
 * came (JSON), beside the few columns the offline queries need (order, status, project); the list's rows are a table of
 * their own, so reading the whole list does not read each project's whole answer.
 *
 * What it forgets (mirror-prune.ts):
 *   - a project the service no longer lists, once a whole read of the list proves it — pages 1, 2, … to the last,
 *     none missing (in any order), every page counting the same `total` and the rows read adding up to it — with
 *     its answer, its takes and their versions; a project read again since that read began stays, and a partial
 *     read or a search forgets nothing;
 *   - an account no profile signs in as any more (its profile removed, no other of the same account), whole, when
 *     the profiles change and at start: what was loaded is the service's to give again, and a removed account's
 *     titles, scripts and media links should not stay on the computer. Its queued decisions stay (they are the
 *     producer's work, kept for when the same account comes back: decisions.ts).
 * No size or age bound beyond those: every project the service still lists is one the producer may open offline,
 * at ~10 KiB with four takes (10,000 projects: ~100 MiB), and each full read of the list refreshes it.
 */
import type {
  Deliverable,
  ItemList,
  ListProjectsParams,
  ListProjectsResponse,
  Project,
  ProjectListItem,
  Read,
  VersionsResponse,
} from '../../../shared/api';
import { serviceTime } from '../../../shared/api/schemas';
import { transaction, type Database, type Migration } from './database';
import { createMirrorPruner } from './mirror-prune';

/** The order key of a project without a readable date: after every dated one, as the service lists them. */
const UNDATED = Number.MIN_SAFE_INTEGER;

/** The mirror's tables (schema 2 of the review database). */
export const MIRROR_MIGRATIONS: Migration[] = [
  {
    version: 2,
    up(db) {
      db.exec(`
        CREATE TABLE mirror_projects (
          account TEXT NOT NULL,
          id TEXT NOT NULL,
          list_row TEXT,
          list_read_at TEXT,
          created INTEGER,
          detail TEXT,
          detail_read_at TEXT,
          deliverables_read_at TEXT,
          deliverables_unreadable INTEGER NOT NULL DEFAULT 0,
          PRIMARY KEY (account, id)
        );
        -- The list's order, count and read time from the index alone: its rows hold whole answers.
        CREATE INDEX mirror_projects_listed ON mirror_projects (account, created DESC, id, list_read_at)
          WHERE list_row IS NOT NULL;
        CREATE TABLE mirror_pages (
          account TEXT NOT NULL,
          query TEXT NOT NULL,
          page INTEGER NOT NULL,
          ids TEXT NOT NULL,
          total INTEGER NOT NULL,
          unreadable INTEGER NOT NULL DEFAULT 0,
          read_at TEXT NOT NULL,
          PRIMARY KEY (account, query, page)
        );
        CREATE TABLE mirror_deliverables (
          account TEXT NOT NULL,
          id TEXT NOT NULL,
          project_id TEXT,
          position INTEGER NOT NULL DEFAULT 0,
          status TEXT NOT NULL,
          body TEXT NOT NULL,
          read_at TEXT NOT NULL,
          PRIMARY KEY (account, id)
        );
        CREATE INDEX mirror_deliverables_by_project ON mirror_deliverables (account, project_id, position);
        CREATE INDEX mirror_deliverables_by_status ON mirror_deliverables (account, status, project_id);
        CREATE TABLE mirror_versions (
          account TEXT NOT NULL,
          deliverable_id TEXT NOT NULL,
          body TEXT NOT NULL,
          read_at TEXT NOT NULL,
          PRIMARY KEY (account, deliverable_id)
        );
      `);
    },
  },
  {
    // The list's rows in a table of their own, beside only what orders them: read page after page, they no longer
    // drag each project's whole answer through the page cache (the whole list of 10,000 took ~135 ms).
    version: 4,
    up(db) {
      db.exec(`
        CREATE TABLE mirror_list (
          account TEXT NOT NULL,
          id TEXT NOT NULL,
          created INTEGER NOT NULL,
          row TEXT NOT NULL,
          read_at TEXT NOT NULL,
          PRIMARY KEY (account, id)
        );
        CREATE INDEX mirror_list_order ON mirror_list (account, created DESC, id);
        -- When the list was last read, from the index alone (not from every row).
        CREATE INDEX mirror_list_read ON mirror_list (account, read_at);
        INSERT INTO mirror_list (account, id, created, row, read_at)
          SELECT account, id, coalesce(created, ${UNDATED}), list_row, list_read_at FROM mirror_projects
          WHERE list_row IS NOT NULL;
        DROP INDEX mirror_projects_listed;
        ALTER TABLE mirror_projects DROP COLUMN list_row;
        ALTER TABLE mirror_projects DROP COLUMN list_read_at;
        ALTER TABLE mirror_projects DROP COLUMN created;
      `);
    },
  },
];

/** An answer given from the mirror: the ISO time it was read from the service. */
export type Mirrored<T> = T & { asOf: string };

export interface Mirror {
  /** A page of `GET /projects` for a query: its rows, and the page itself (a filtered list answers from it). */
  listed(account: string, query: ListProjectsParams, answer: Read<ListProjectsResponse>): void;
  /** List rows read elsewhere (the watcher's listings). */
  rows(account: string, rows: readonly ProjectListItem[]): void;
  project(account: string, project: Read<Project>): void;
  /** A project's whole deliverables list: its earlier rows not in it are gone from the service's answer. */
  deliverables(account: string, projectId: string, list: readonly Deliverable[], unreadable?: number): void;
  deliverable(account: string, deliverable: Deliverable): void;
  versions(account: string, answer: Read<VersionsResponse>): void;

  /** The list as last loaded; null when this query was never answered on this computer. */
  readList(account: string, query: ListProjectsParams): Mirrored<Read<ListProjectsResponse>> | null;
  readProject(account: string, id: string): Mirrored<Read<Project>> | null;
  readDeliverables(account: string, projectId: string): Mirrored<ItemList<Deliverable>> | null;
  readDeliverable(account: string, id: string): Mirrored<Deliverable> | null;
  readVersions(account: string, deliverableId: string): Mirrored<Read<VersionsResponse>> | null;
  /** Ids of the projects with a take waiting for the producer (status `reviewable`), as last read. */
  needsReview(account: string): string[];
  /**
   * The service's answer to the producer's decision on these takes: their status as the service now says (a loaded
   * answer read next does not show the take as it was before the decision).
   */
  decided(account: string, takes: ReadonlyArray<{ id: string; status: string }>): void;
  /** Forgets what was loaded for any other account (no profile signs in as it any more). */
  keepAccounts(accounts: readonly string[]): void;
}

/** Default page size of `GET /projects` (spec). */
const SERVICE_PAGE_SIZE = 20;

/** The key of a filtered listing: its filters, without the page. */
function queryKey(query: ListProjectsParams): string {
  return JSON.stringify([query.titleQuery ?? '', query.category ?? '', query.pageSize ?? SERVICE_PAGE_SIZE]);
}

const isFiltered = (query: ListProjectsParams) => Boolean(query.titleQuery || query.category);

/** A project's list row from its full answer: the list's fields, without its services. */
function listRowOf(project: Read<Project>): ProjectListItem {
  const { services: _services, unreadable: _unreadable, ...row } = project;
  return row;
}

function createdOf(row: { created?: string }): number {
  const time = serviceTime(row.created);
  return Number.isFinite(time) ? time : UNDATED;
}

/** Where a page of the whole list ended: the next page starts after it (no rows skipped again). */
interface PageEnd {
  created: number;
  id: string;
}

/** The mirror over an opened database (its migrations applied). */
export function createMirror(db: Database, now: () => Date = () => new Date()): Mirror {
  const stamp = () => now().toISOString();
  const upsertRow = db.prepare(
    'INSERT OR REPLACE INTO mirror_list (account, id, created, row, read_at) VALUES (?, ?, ?, ?, ?)',
  );
  const upsertDetail = db.prepare(`
    INSERT INTO mirror_projects (account, id, detail, detail_read_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (account, id) DO UPDATE SET detail = excluded.detail, detail_read_at = excluded.detail_read_at`);
  const upsertPage = db.prepare(`
    INSERT OR REPLACE INTO mirror_pages (account, query, page, ids, total, unreadable, read_at)
    VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const markDeliverables = db.prepare(`
    INSERT INTO mirror_projects (account, id, deliverables_read_at, deliverables_unreadable) VALUES (?, ?, ?, ?)
    ON CONFLICT (account, id) DO UPDATE SET
      deliverables_read_at = excluded.deliverables_read_at,
      deliverables_unreadable = excluded.deliverables_unreadable`);
  const dropDeliverablesOf = db.prepare(
    'DELETE FROM mirror_deliverables WHERE account = ? AND project_id = ?',
  );
  const upsertDeliverable = db.prepare(`
    INSERT INTO mirror_deliverables (account, id, project_id, position, status, body, read_at)
    VALUES (?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (account, id) DO UPDATE SET
      project_id = coalesce(excluded.project_id, mirror_deliverables.project_id),
      position = CASE WHEN excluded.project_id IS NULL THEN mirror_deliverables.position ELSE excluded.position END,
      status = excluded.status, body = excluded.body, read_at = excluded.read_at`);
  const upsertVersions = db.prepare(
    'INSERT OR REPLACE INTO mirror_versions (account, deliverable_id, body, read_at) VALUES (?, ?, ?, ?)',
  );

  const setStatus = db.prepare(`
    UPDATE mirror_deliverables SET status = ?1, body = json_set(body, '$.status', ?1) WHERE account = ?2 AND id = ?3`);
  const setVersionsStatus = db.prepare(`
    UPDATE mirror_versions SET body = json_set(body, '$.status', ?1) WHERE account = ?2 AND deliverable_id = ?3`);

  const selectPage = db.prepare(
    'SELECT ids, total, unreadable, read_at FROM mirror_pages WHERE account = ? AND query = ? AND page = ?',
  );
  const selectRow = db.prepare('SELECT row FROM mirror_list WHERE account = ? AND id = ?');
  // A page comes as one JSON array (one parse, not one per row) with where it ended.
  const pageOf = (rows: string) =>
    db.prepare(`
      WITH page AS MATERIALIZED (${rows})
      SELECT '[' || coalesce(group_concat(row, ',' ORDER BY created DESC, id), '') || ']' AS rows,
        (SELECT created FROM page ORDER BY created, id DESC LIMIT 1) AS last_created,
        (SELECT id FROM page ORDER BY created, id DESC LIMIT 1) AS last_id
      FROM page`);
  // Found in the order index alone (skipping rows there reads no row), then its rows are read.
  const selectRows = pageOf(`
    SELECT p.id, p.created, p.row FROM (
      SELECT rowid AS at FROM mirror_list WHERE account = ? ORDER BY created DESC, id LIMIT ? OFFSET ?
    ) AS at JOIN mirror_list AS p ON p.rowid = at.at`);
  // The page after one already read starts where that one ended.
  const selectRowsAfter = pageOf(`
    SELECT id, created, row FROM mirror_list
    WHERE account = ? AND created <= ? AND NOT (created = ? AND id <= ?)
    ORDER BY created DESC, id LIMIT ?`);
  const countRows = db.prepare(
    'SELECT count(*) AS n, max(read_at) AS read_at FROM mirror_list WHERE account = ?',
  );
  const selectDetail = db.prepare(
    'SELECT detail, detail_read_at FROM mirror_projects WHERE account = ? AND id = ? AND detail IS NOT NULL',
  );
  const selectListMark = db.prepare(`
    SELECT deliverables_read_at, deliverables_unreadable FROM mirror_projects
    WHERE account = ? AND id = ? AND deliverables_read_at IS NOT NULL`);
  const selectDeliverablesOf = db.prepare(
    'SELECT body FROM mirror_deliverables WHERE account = ? AND project_id = ? ORDER BY position',
  );
  const selectDeliverable = db.prepare(
    'SELECT body, read_at FROM mirror_deliverables WHERE account = ? AND id = ?',
  );
  const selectVersions = db.prepare(
    'SELECT body, read_at FROM mirror_versions WHERE account = ? AND deliverable_id = ?',
  );
  const selectNeedsReview = db.prepare(`
    SELECT DISTINCT project_id FROM mirror_deliverables
    WHERE account = ? AND status = 'reviewable' AND project_id IS NOT NULL`);

  // The renderer reads the whole list page after page: its count and where each page ended are kept between
  // the reads (per account, until its rows change), so no page counts or skips the rows again.
  const counted = new Map<string, { n: number; read_at: string | null }>();
  const pageEnds = new Map<string, PageEnd>();
  const pageEndKey = (account: string, pageSize: number, page: number) => `${account}\n${pageSize}\n${page}`;
  const listChanged = (account: string) => {
    counted.delete(account);
    for (const key of pageEnds.keys()) if (key.startsWith(`${account}\n`)) pageEnds.delete(key);
  };
  const pruner = createMirrorPruner(db, SERVICE_PAGE_SIZE);
  const putRows = (account: string, rows: readonly ProjectListItem[], at: string) => {
    listChanged(account);
    for (const row of rows) upsertRow.run(account, row.id, createdOf(row), JSON.stringify(row), at);
  };

  return {
    listed(account, query, answer) {
      const at = stamp();
      transaction(db, () => {
        putRows(account, answer.projects, at);
        upsertPage.run(
          account,
          queryKey(query),
          query.page ?? 1,
          JSON.stringify(answer.projects.map((p) => p.id)),
          answer.total,
          answer.unreadable ?? 0,
          at,
        );
      });
      if (pruner.listed(account, query, answer, at)) listChanged(account);
    },

    rows(account, rows) {
      const at = stamp();
      transaction(db, () => putRows(account, rows, at));
    },

    project(account, project) {
      const at = stamp();
      transaction(db, () => {
        putRows(account, [listRowOf(project)], at);
        upsertDetail.run(account, project.id, JSON.stringify(project), at);
      });
    },

    deliverables(account, projectId, list, unreadable = 0) {
      const at = stamp();
      transaction(db, () => {
        dropDeliverablesOf.run(account, projectId);
        list.forEach((d, position) =>
          upsertDeliverable.run(account, d.id, projectId, position, d.status, JSON.stringify(d), at),
        );
        markDeliverables.run(account, projectId, at, unreadable);
      });
    },

    deliverable(account, deliverable) {
      upsertDeliverable.run(
        account,
        deliverable.id,
        null,
        0,
        deliverable.status,
        JSON.stringify(deliverable),
        stamp(),
      );
    },

    versions(account, answer) {
      upsertVersions.run(account, answer.id, JSON.stringify(answer), stamp());
    },

    readList(account, query) {
      const page = query.page ?? 1;
      const pageSize = query.pageSize ?? SERVICE_PAGE_SIZE;
      // A filtered list is the service's search: only the pages it answered can say what matched.
      if (isFiltered(query)) {
        const saved = selectPage.get(account, queryKey(query), page) as
          { ids: string; total: number; unreadable: number; read_at: string } | undefined;
        if (!saved) return null;
        const projects: ProjectListItem[] = [];
        for (const id of JSON.parse(saved.ids) as string[]) {
          const row = selectRow.get(account, id) as { row: string } | undefined;
          if (row) projects.push(JSON.parse(row.row) as ProjectListItem);
        }
        return {
          page,
          total: saved.total,
          projects,
          ...(saved.unreadable ? { unreadable: saved.unreadable } : {}),
          asOf: saved.read_at,
        };
      }
      // The whole list: every project loaded for this account, newest first, as the service orders it.
      let count = counted.get(account);
      if (!count) {
        count = countRows.get(account) as { n: number; read_at: string | null };
        counted.set(account, count);
      }
      if (!count.read_at) return null;
      const after = pageEnds.get(pageEndKey(account, pageSize, page - 1));
      const found = (
        after
          ? selectRowsAfter.get(account, after.created, after.created, after.id, pageSize)
          : selectRows.get(account, pageSize, (page - 1) * pageSize)
      ) as { rows: string; last_created: number | null; last_id: string | null };
      if (found.last_id !== null && found.last_created !== null)
        pageEnds.set(pageEndKey(account, pageSize, page), { created: found.last_created, id: found.last_id });
      return {
        page,
        total: count.n,
        projects: JSON.parse(found.rows) as ProjectListItem[],
        asOf: count.read_at,
      };
    },

    readProject(account, id) {
      const row = selectDetail.get(account, id) as { detail: string; detail_read_at: string } | undefined;
      if (!row) return null;
      return { ...(JSON.parse(row.detail) as Read<Project>), asOf: row.detail_read_at };
    },

    readDeliverables(account, projectId) {
      const mark = selectListMark.get(account, projectId) as
        { deliverables_read_at: string; deliverables_unreadable: number } | undefined;
      if (!mark) return null;
      const rows = selectDeliverablesOf.all(account, projectId) as Array<{ body: string }>;
      return {
        items: rows.map((r) => JSON.parse(r.body) as Deliverable),
        unreadable: mark.deliverables_unreadable,
        asOf: mark.deliverables_read_at,
      };
    },

    readDeliverable(account, id) {
      const row = selectDeliverable.get(account, id) as { body: string; read_at: string } | undefined;
      if (!row) return null;
      return { ...(JSON.parse(row.body) as Deliverable), asOf: row.read_at };
    },

    readVersions(account, deliverableId) {
      const row = selectVersions.get(account, deliverableId) as { body: string; read_at: string } | undefined;
      if (!row) return null;
      return { ...(JSON.parse(row.body) as Read<VersionsResponse>), asOf: row.read_at };
    },

    decided(account, takes) {
      transaction(db, () => {
        for (const take of takes) {
          setStatus.run(take.status, account, take.id);
          setVersionsStatus.run(take.status, account, take.id);
        }
      });
    },

    keepAccounts(accounts) {
      if (!pruner.keepAccounts(accounts)) return;
      counted.clear();
      pageEnds.clear();
    },

    needsReview(account) {
      return (selectNeedsReview.all(account) as Array<{ project_id: string }>).map((r) => r.project_id);
    },
  };
}
