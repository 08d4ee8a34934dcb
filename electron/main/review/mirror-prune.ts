/**
 * What the read mirror forgets (its policy is in mirror.ts's header): the projects the service no longer lists, once
 * a whole read of its list proves it, and every account no profile signs in as any more.
 */
import type { ListProjectsParams, ListProjectsResponse, Read } from '../../../shared/api';
import { pageMayContinue } from '../../../shared/api/paging';
import { transaction, type Database } from './database';

/** A read of the whole (unfiltered) list under way: the ids its pages gave, from its first page on. */
interface Sweep {
  pageSize: number;
  startedAt: string;
  next: number;
  firstPageRows: number;
  seen: Set<string>;
  unreadable: number;
}

export interface MirrorPruner {
  /**
   * A page of the unfiltered list was kept at `at`. When it ends a read of pages 1, 2, … with none missing, and
   * the rows read are every project the service counted, the projects not among them are forgotten (unless read
   * since that read began). Returns whether any was.
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
  const accountsOf = TABLES.map((table) => db.prepare(`SELECT DISTINCT account FROM ${table}`));
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

  /** The sweep a page belongs to, or undefined when it does not continue one (then none is under way). */
  const sweepOf = (account: string, page: number, pageSize: number, at: string, rows: number) => {
    if (page === 1) {
      const sweep = {
        pageSize,
        startedAt: at,
        next: 1,
        firstPageRows: rows,
        seen: new Set<string>(),
        unreadable: 0,
      };
      sweeps.set(account, sweep);
      return sweep;
    }
    const sweep = sweeps.get(account);
    if (sweep && sweep.next === page && sweep.pageSize === pageSize) return sweep;
    // A page out of turn (another read of the list began, or one was left): this read proves nothing.
    sweeps.delete(account);
    return undefined;
  };

  return {
    listed(account, query, answer, at) {
      if (query.titleQuery || query.category) return false;
      const pageSize = query.pageSize ?? defaultPageSize;
      const sweep = sweepOf(account, query.page ?? 1, pageSize, at, answer.projects.length);
      if (!sweep) return false;
      for (const row of answer.projects) sweep.seen.add(row.id);
      sweep.unreadable += answer.unreadable ?? 0;
      sweep.next++;
      if (pageMayContinue(answer.projects.length, pageSize, sweep.firstPageRows)) return false;
      sweeps.delete(account);
      // `total` counts every project of the account: a project made or deleted while the pages were read shifts
      // them, and a row may have been passed over. Only a read that saw them all may say what is gone.
      if (sweep.seen.size + sweep.unreadable !== answer.total) return false;
      const before = (statement: typeof listedBefore) =>
        (statement.all(account, sweep.startedAt) as Array<{ id: string }>).map((r) => r.id);
      const gone = [...before(listedBefore), ...before(unlistedBefore)].filter((id) => !sweep.seen.has(id));
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
