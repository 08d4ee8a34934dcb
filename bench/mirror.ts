/**
 * The read mirror at scale (issue 23): an account of 10,000 projects and 40,000 deliverables (each with its versions
 * answer) mirrored in `takedesk.sqlite`, then, each on a new connection as after a restart:
 *
 *   - the projects list from the store: its first page, and the whole list page by page as the renderer reads it
 *     (pages of 200, each row's JSON parsed; the shell reads the whole list in one query);
 *   - the needs-review query (projects with a take waiting for the producer);
 *   - opening a take offline: the take, its versions, its project and the project's takes (the review page's reads);
 *   - queueing a decision while the service is away (`decide`, commit with `synchronous = FULL` included);
 *
 * plus the database's size. The reference is the `sqlite3` command-line shell (Debian's) running the same SQL on
 * the same file in the same run: its wall time minus that of a shell that only opens the file and runs `SELECT 1`,
 * so process start-up is not counted. Goal: each read under 50 ms here.
 *
 *   npx tsx bench/mirror.ts   (BENCH_PROJECTS=10000, BENCH_TAKES=4 per project, BENCH_RUNS=7, BENCH_DECISIONS=200)
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as Sqlite from 'node:sqlite';
import type { Deliverable, Project, ProjectListItem, VersionsResponse } from '../shared/api';
import { openDatabase, type Database } from '../electron/main/review/database';
import { createDecisions } from '../electron/main/review/decisions';
import { DATABASE_MIGRATIONS } from '../electron/main/review/migrations';
import { createMirror } from '../electron/main/review/mirror';
import { markdownTable } from './lib/report';
import { median } from './lib/timing';

const { DatabaseSync } = createRequire(import.meta.url)('node:sqlite') as typeof Sqlite;

const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 10_000);
const TAKES = Number(process.env.BENCH_TAKES ?? 4);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const DECISIONS = Number(process.env.BENCH_DECISIONS ?? 200);
const PAGE = 200;
/** The shell's start-up varies by milliseconds: the same SQL runs this many times in one shell, and is divided. */
const REPEAT = Number(process.env.BENCH_REPEAT ?? 20);
const ACCOUNT = 'https://api.example.com|sub:bench';
const OTHER = 'https://api.example.com|sub:other';

const dir = mkdtempSync(join(tmpdir(), 'takedesk-bench-mirror-'));
const path = join(dir, 'takedesk.sqlite');

// --- an account's worth of answers, in the service's shapes ---------------------------------------------------
const STATUSES = ['reviewable', 'approved', 'pending', 'revisionRequested', 'rejected'] as const;
const script = 'Fresh bread every morning, delivered warm to your door. '.repeat(4);
const media = (id: string, v: number) => ({
  wav: `https://api.example.com/media/${id}/v${v}.wav?token=${'x'.repeat(40)}`,
  mp3: `https://api.example.com/media/${id}/v${v}.mp3?token=${'x'.repeat(40)}`,
});

function projectAt(i: number): { row: ProjectListItem; project: Project } {
  const created = new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString().slice(0, 19);
  const row = {
    id: randomUUID(),
    title: `Campaign ${i} — spring promo`,
    mainService: 'voice_over',
    fulfillmentType: i % 7 === 0 ? 'contest' : 'speedy',
    created,
    status: i % 10 === 0 ? 'completed' : 'paid',
    price: 120 + (i % 50),
    fake: false,
    test: false,
    remarks: '',
  } as ProjectListItem;
  const project = {
    ...row,
    services: [
      {
        id: randomUUID(),
        subCategory: 'voice_over',
        price: 100,
        status: 'paid',
        units: 30,
        unitType: 'seconds',
        seconds: 30,
        script,
        language: 'en-GB',
        genderAndAge: 'female_adult',
      },
    ],
  } as unknown as Project;
  return { row, project };
}

function takeAt(p: number, t: number): { take: Deliverable; versions: VersionsResponse } {
  const id = randomUUID();
  const status = STATUSES[(p * TAKES + t) % STATUSES.length]!;
  const take = { id, serviceSubCategory: 'voice_over', name: String(t + 1), status, urls: media(id, 2) };
  const versions = {
    ...take,
    versions: [
      { created: '2026-01-01T10:00:00', instructions: null, urls: media(id, 1) },
      { created: '2026-01-02T10:00:00', instructions: 'Warmer at [0:03.0], please.', urls: media(id, 2) },
    ],
  };
  return { take: take as Deliverable, versions: versions as VersionsResponse };
}

/** Fills the mirror as the app does: list pages, each project, its takes, each take's versions. */
function seed(): { project: string; take: string; ms: number } {
  const { db } = openDatabase(path, DATABASE_MIGRATIONS);
  const mirror = createMirror(db);
  const t0 = performance.now();
  const all = Array.from({ length: PROJECTS }, (_, i) => projectAt(PROJECTS - 1 - i)); // newest first
  for (let page = 0; page * PAGE < PROJECTS; page++) {
    const rows = all.slice(page * PAGE, (page + 1) * PAGE).map((p) => p.row);
    mirror.listed(
      ACCOUNT,
      { page: page + 1, pageSize: PAGE },
      { page: page + 1, total: PROJECTS, projects: rows },
    );
  }
  let sample = { project: '', take: '' };
  all.forEach(({ project }, p) => {
    mirror.project(ACCOUNT, project);
    const takes = Array.from({ length: TAKES }, (_, t) => takeAt(p, t));
    mirror.deliverables(
      ACCOUNT,
      project.id,
      takes.map((t) => t.take),
    );
    for (const t of takes) mirror.versions(ACCOUNT, t.versions);
    if (p === Math.floor(PROJECTS / 2)) sample = { project: project.id, take: takes[0]!.take.id };
  });
  // Another account on the same computer: its rows must not slow this one's reads.
  const other = projectAt(0);
  mirror.listed(OTHER, {}, { page: 1, total: 1, projects: [other.row] });
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  const ms = performance.now() - t0;
  db.close();
  return { ...sample, ms };
}

/** A new connection as after a restart (no quick_check: that is the app's start, measured on its own). */
function connect(): Database {
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = WAL');
  return db;
}

/** Cold: a new connection (and the mirror's statements prepared) for each run, as the first read after a start. */
function ours(work: (mirror: ReturnType<typeof createMirror>) => unknown): number[] {
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const db = connect();
    work(createMirror(db));
    db.close();
    runs.push(performance.now() - t0);
  }
  return runs;
}

/** Warm: the work REPEAT times on one connection, per time (ms), as the shell's figure is made. */
function oursWarm(work: (mirror: ReturnType<typeof createMirror>) => unknown, repeat = REPEAT): number[] {
  const runs: number[] = [];
  const db = connect();
  const mirror = createMirror(db);
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    for (let r = 0; r < repeat; r++) work(mirror);
    runs.push((performance.now() - t0) / repeat);
  }
  db.close();
  return runs;
}

/** The shell's wall time for `sql` (or a new script per run) minus that for `SELECT 1`, per run (ms). */
function shell(sql: string | (() => string)): number[] {
  const run = (script: string) => {
    const t0 = performance.now();
    const result = spawnSync('sqlite3', ['-batch', path], {
      input: script,
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    if (result.status !== 0) throw new Error(`sqlite3: ${result.stderr.toString()}`);
    return performance.now() - t0;
  };
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const base = run('SELECT 1;\n');
    runs.push(Math.max(0, run(`${typeof sql === 'string' ? sql : sql()}\n`) - base));
  }
  return runs;
}

const q = (text: string) => `'${text.replace(/'/g, "''")}'`;
const listPageSql = (page: number) =>
  `SELECT p.id, p.created, p.row FROM (SELECT rowid AS at FROM mirror_list WHERE account = ${q(ACCOUNT)} ORDER BY created DESC, id LIMIT ${PAGE} OFFSET ${(page - 1) * PAGE}) AS page JOIN mirror_list AS p ON p.rowid = page.at ORDER BY p.created DESC, p.id;`;
const countSql = `SELECT count(*), max(read_at) FROM mirror_list WHERE account = ${q(ACCOUNT)};`;
/** The shell's whole list: its count and every row in one query (ours reads it page by page, as the renderer asks). */
const wholeListSql = `${countSql}\nSELECT id, created, row FROM mirror_list WHERE account = ${q(ACCOUNT)} ORDER BY created DESC, id;`;

function takeSql(project: string, take: string): string {
  return [
    `SELECT body, read_at FROM mirror_deliverables WHERE account = ${q(ACCOUNT)} AND id = ${q(take)};`,
    `SELECT body, read_at FROM mirror_versions WHERE account = ${q(ACCOUNT)} AND deliverable_id = ${q(take)};`,
    `SELECT detail, detail_read_at FROM mirror_projects WHERE account = ${q(ACCOUNT)} AND id = ${q(project)} AND detail IS NOT NULL;`,
    `SELECT deliverables_read_at, deliverables_unreadable FROM mirror_projects WHERE account = ${q(ACCOUNT)} AND id = ${q(project)} AND deliverables_read_at IS NOT NULL;`,
    `SELECT body FROM mirror_deliverables WHERE account = ${q(ACCOUNT)} AND project_id = ${q(project)} ORDER BY position;`,
  ].join('\n');
}

/** `decide` while the service is away: committed, tried, queued (QUEUED_OFFLINE), per decision. */
async function queueDecisions(): Promise<number[]> {
  const { db } = openDatabase(path, DATABASE_MIGRATIONS);
  const decisions = createDecisions({
    db,
    profiles: {
      state: async () => ({ activeId: 'bench', profiles: [{ id: 'bench' }] as never }),
      get: async () => {
        throw Object.assign(new Error('The service cannot be reached'), { type: 'NETWORK_UNREACHABLE' });
      },
      account: async () => ACCOUNT,
    },
  });
  const runs: number[] = [];
  for (let i = 0; i < DECISIONS; i++) {
    const projectId = randomUUID();
    const t0 = performance.now();
    await decisions
      .decide(
        { kind: 'approve', deliverableId: randomUUID() },
        { version: 2, status: 'reviewable', projectId },
        async () => null,
      )
      .catch((error: { type?: string }) => {
        if (error.type !== 'QUEUED_OFFLINE') throw error;
      });
    runs.push(performance.now() - t0);
  }
  await decisions.close();
  db.close();
  return runs;
}

/** The same commit in the shell: one transaction per decision, `synchronous = FULL` as the app sets it. */
function shellDecisions(): number[] {
  const insert = () =>
    `BEGIN IMMEDIATE; INSERT INTO decisions (id, account, profile_id, lane, decision, heard, subject, state, queued_at) VALUES (${q(randomUUID())}, ${q(ACCOUNT)}, 'bench', ${q(randomUUID())}, '{"kind":"approve"}', '{"version":2}', '', 'queued', '2026-11-26T10:42:00.000Z'); COMMIT;`;
  const total = shell(
    () => `PRAGMA synchronous = FULL;\n${Array.from({ length: DECISIONS }, insert).join('\n')}`,
  );
  return total.map((ms) => ms / DECISIONS);
}

const fmt = (ms: number) => (ms >= 10 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(2)} ms`);
const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}x` : '—');

async function main(): Promise<void> {
  console.log(
    `Seeding ${PROJECTS.toLocaleString('en-US')} projects, ${(PROJECTS * TAKES).toLocaleString('en-US')} takes…`,
  );
  const sample = seed();
  const size = statSync(path).size + (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0);
  console.log(
    `  seeded in ${(sample.ms / 1000).toFixed(1)} s; database ${(size / 1024 / 1024).toFixed(1)} MiB`,
  );

  const startRuns: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    openDatabase(path, DATABASE_MIGRATIONS).db.close();
    startRuns.push(performance.now() - t0);
  }

  const pages = Math.ceil(PROJECTS / PAGE);
  const rows: string[][] = [];
  const add = (
    task: string,
    work: (mirror: ReturnType<typeof createMirror>) => unknown,
    sql: string,
    repeat = REPEAT,
  ) => {
    const cold = ours(work);
    const m = median(cold);
    const warm = median(oursWarm(work, repeat));
    const s = median(shell(Array.from({ length: repeat }, () => sql).join('\n'))) / repeat;
    rows.push([
      task,
      fmt(m),
      fmt(Math.max(...cold)),
      fmt(warm),
      fmt(s),
      ratio(warm, s),
      m < 50 ? 'yes' : 'no',
    ]);
    console.log(
      `${task}: ours cold ${fmt(m)} (max ${fmt(Math.max(...cold))}), warm ${fmt(warm)}; sqlite3 ${fmt(s)}; warm ratio ${ratio(warm, s)}`,
    );
  };

  add(
    'projects list, first page (200)',
    (m) => m.readList(ACCOUNT, { page: 1, pageSize: PAGE }),
    `${countSql}\n${listPageSql(1)}`,
  );
  add(
    `projects list, all ${pages} pages (${PROJECTS.toLocaleString('en-US')})`,
    (m) => {
      let read = 0;
      for (let page = 1; page <= pages; page++)
        read += m.readList(ACCOUNT, { page, pageSize: PAGE })!.projects.length;
      if (read !== PROJECTS) throw new Error(`the whole list read ${read} rows of ${PROJECTS}`);
    },
    wholeListSql,
    2,
  );
  add(
    'needs-review query',
    (m) => m.needsReview(ACCOUNT),
    `SELECT DISTINCT project_id FROM mirror_deliverables WHERE account = ${q(ACCOUNT)} AND status = 'reviewable' AND project_id IS NOT NULL;`,
  );
  add(
    'open a take offline (take, versions, project, its takes)',
    (m) => {
      m.readDeliverable(ACCOUNT, sample.take);
      m.readVersions(ACCOUNT, sample.take);
      m.readProject(ACCOUNT, sample.project);
      m.readDeliverables(ACCOUNT, sample.project);
    },
    takeSql(sample.project, sample.take),
  );
  const decided = await queueDecisions();
  const shellDecided = shellDecisions();
  const dm = median(decided);
  const ds = median(shellDecided);
  // A decision is written once, not read: its cold figure is the app's own `decide`, its warm one the bare commit.
  rows.push([
    'queue a decision (`decide`, commit with synchronous = FULL)',
    fmt(dm),
    fmt(Math.max(...decided)),
    '—',
    fmt(ds),
    ratio(dm, ds),
    '—',
  ]);
  console.log(
    `queue a decision: ours ${fmt(dm)} (max ${fmt(Math.max(...decided))}), sqlite3 ${fmt(ds)}, ratio ${ratio(dm, ds)}`,
  );
  rows.push([
    'open the database at start (quick_check, migrations)',
    fmt(median(startRuns)),
    fmt(Math.max(...startRuns)),
    '—',
    '—',
    '—',
    '—',
  ]);
  console.log(`open at start: ${fmt(median(startRuns))}`);

  console.log(
    `\n${PROJECTS.toLocaleString('en-US')} projects, ${(PROJECTS * TAKES).toLocaleString('en-US')} takes with their versions; database ${(size / 1024 / 1024).toFixed(1)} MiB (${(size / PROJECTS / 1024).toFixed(1)} KiB a project); median of ${RUNS} runs; cold: a new connection each run; warm: ${REPEAT} times (the whole list twice) on one connection, per time, as in the shell (one process, the same repeats, its start-up subtracted)\n`,
  );
  console.log(
    markdownTable(
      [
        'read',
        'ours, cold (median)',
        'ours, cold (max)',
        'ours, warm',
        'sqlite3 shell, warm',
        'ours / shell',
        'cold under 50 ms',
      ],
      rows,
    ),
  );
}

try {
  await main();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
