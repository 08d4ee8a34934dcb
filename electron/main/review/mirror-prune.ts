/**
 * What the read mirror forgets (its policy is in mirror.ts's header): the projects the service no longer lists, once
 * a whole read of its list proves it, and every account no profile signs in as any more.
 */
import type { ListProjectsParams, ListProjectsResponse, Read } from '../../../shared/api';
import { pageMayContinue } from '../../../shared/api/paging';
import { transaction, type Database } from './database';

/**
 * A read of the whole (unfiltered) list under way: what each of its pages gave. Its pages may be kept in any order
 * (each read's answer lands when the service gives it); a page kept twice begins another read.
 */
interface Sweep {
  pageSize: number;
  /** When its earliest page was read. */
  startedAt: string;
  pages: Map<number, { ids: string[]; unreadable: number; total: number }>;
}

export interface MirrorPruner {
  /**
   * A page of the unfiltered list was kept at `at`. When a read has pages 1, 2, … to the last with none missing,
   * each counting as many projects, and the rows read are every project the service counted, the projects not among
   * them are forgotten (unless read since that read began). Returns whether any was.
   */
  listed(account: string, query: ListProjectsParams, answer: Read<ListProjectsResponse>, at: string): boolean;
  /** Forgets every account but these. Returns whether any was. */
  keepAccounts(accounts: readonly string[]): boolean;
}

const TABLES = ['mirror_list', 'mirror_projects', 'mirror_pages', 'mirror_deliverables', 'mirror_versions'];

export function createMirrorPruner(db: Database, defaultPageSize: number): MirrorPruner {
  const sweeps = new Map<string, Sweep>();
  const listedBefore = db.prepare('SELECT id FROM mirror_list WHERE account = ? AND read_at < ?');
  const unlistedBefore = db.prepare(`
    SELECT id FROM mirror_projects WHERE account = ?
      AND coalesce(detail_read_at, deliverables_read_at) < ?
      AND NOT EXISTS (SELECT 1 FROM mirror_list AS l WHERE l.account = mirror_projects.account AND l.id = mirror_projects.id)`);
  const forgetVersions = db.prepare(`
    DELETE FROM mirror_versions WHERE account = ?1
      AND deliverable_id IN (SELECT id FROM mirror_deliverables WHERE account = ?1 AND project_id = ?2)`);
  const forgetDeliverables = db.prepare(
    'DELETE FROM mirror_deliverables WHERE account = ? AND project_id = ?',
  );
  const forgetProject = db.prepare('DELETE FROM mirror_projects WHERE account = ? AND id = ?');
  const forgetRow = db.prepare('DELETE FROM mirror_list WHERE account = ? AND id = ?');
  // Each table's accounts by jumping from one to the next in its key (at start: not a scan of 40,000 takes).
  const accountsOf = TABLES.map((table) =>
    db.prepare(`
      WITH RECURSIVE found(account) AS (
        SELECT min(account) FROM ${table}
        UNION ALL SELECT (SELECT min(account) FROM ${table} WHERE account > found.account) FROM found
        WHERE found.account IS NOT NULL
      )
      SELECT account FROM found WHERE account IS NOT NULL`),
  );
  const forgetAccount = TABLES.map((table) => db.prepare(`DELETE FROM ${table} WHERE account = ?`));

  const forgetProjects = (account: string, ids: readonly string[]) =>
    transaction(db, () => {
      for (const id of ids) {
        forgetVersions.run(account, id);
        forgetDeliverables.run(account, id);
        forgetProject.run(account, id);
        forgetRow.run(account, id);
      }
    });

  /** The sweep a page belongs to: the one under way, or a new one when this page was kept in it already. */
  const sweepOf = (account: string, page: number, pageSize: number, at: string) => {
    const current = sweeps.get(account);
    if (current && current.pageSize === pageSize && !current.pages.has(page)) {
      if (at < current.startedAt) current.startedAt = at;
      return current;
    }
    const sweep: Sweep = { pageSize, startedAt: at, pages: new Map() };
    sweeps.set(account, sweep);
    return sweep;
  };

  /** The ids of a whole read of the list, or null while (or when) it is not one. */
  const wholeRead = (sweep: Sweep): Set<string> | null => {
    const first = sweep.pages.get(1);
    if (!first) return null;
    const seen = new Set<string>();
    let unreadable = 0;
    for (let page = 1; ; page++) {
      const got = sweep.pages.get(page);
      // `total` counts every project of the account: a project made or deleted while the pages were read shifts
      // them, and a row may have been passed over. Only pages that all counted the same may say what is gone.
      if (!got || got.total !== first.total) return null;
      for (const id of got.ids) seen.add(id);
      unreadable += got.unreadable;
      if (pageMayContinue(got.ids.length, sweep.pageSize, first.ids.length)) continue;
      return seen.size + unreadable === first.total ? seen : null;
    }
  };

  return {
    listed(account, query, answer, at) {
      if (query.titleQuery || query.category) return false;
      const pageSize = query.pageSize ?? defaultPageSize;
      const sweep = sweepOf(account, query.page ?? 1, pageSize, at);
      sweep.pages.set(query.page ?? 1, {
        ids: answer.projects.map((row) => row.id),
        unreadable: answer.unreadable ?? 0,
        total: answer.total,
      });
      const seen = wholeRead(sweep);
      if (!seen) return false;
      sweeps.delete(account);
      const before = (statement: typeof listedBefore) =>
        (statement.all(account, sweep.startedAt) as Array<{ id: string }>).map((r) => r.id);
      const gone = [...before(listedBefore), ...before(unlistedBefore)].filter((id) => !seen.has(id));
      if (gone.length > 0) forgetProjects(account, gone);
      return gone.length > 0;
    },

    keepAccounts(accounts) {
      const kept = new Set(accounts);
      const found = new Set(
        accountsOf.flatMap((s) => (s.all() as Array<{ account: string }>).map((r) => r.account)),
      );
      const gone = [...found].filter((account) => !kept.has(account));
      if (gone.length === 0) return false;
      transaction(db, () => {
        for (const account of gone) for (const statement of forgetAccount) statement.run(account);
      });
      for (const account of gone) sweeps.delete(account);
      return true;
    },
  };
}
