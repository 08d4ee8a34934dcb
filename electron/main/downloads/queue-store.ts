/**
 * The download queue's records on disk: `downloads.json` written atomically (not fsynced) after every change,
 * coalesced; read back at start (a damaged file costs only its bad jobs), with jobs of older versions brought to
 * the current layout and profile; and the finished files it records, for a library whose manifest was damaged.
 */
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import type { DownloadJob } from '../../../shared/ipc';
import { createCoalescedTask } from '../kernel/coalesced-task';
import type { KnownFile } from '../library';
import { partPathFor } from '../library';
import { recoverStateFile, salvage } from '../kernel/state-recovery';
import type { JobRecord } from './job';
import type { DownloadsDeps } from './queue';
import { FINISHED, newEntry, partPathOf, type Entry } from './queue-entry';

type PersistedJob = Pick<JobRecord, 'job' | 'request' | 'etag' | 'orderedSeconds'>;

interface StateFile {
  version: 1;
  jobs: PersistedJob[];
}

/** The queue's file; a job without its id or deliverable is dropped alone. */
const StateFileSchema = z.object({
  version: z.number().optional(),
  jobs: z.array(
    z.custom<PersistedJob>((s) => {
      const v = s as Partial<PersistedJob> | null;
      return typeof v?.job?.id === 'string' && typeof v.request?.deliverableId === 'string';
    }),
  ),
});

const isFile = (path: string) =>
  stat(path).then(
    (st) => st.isFile(),
    () => false,
  );

/**
 * The files finished downloads put in the library, by relative path, as the queue's file keeps them (read only;
 * nothing if it cannot be read): the library lists a file its damaged manifest lost under its full ids again.
 */
export async function finishedFilesIn(stateFile: string): Promise<Map<string, KnownFile>> {
  const files = new Map<string, KnownFile>();
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(stateFile, 'utf8'));
  } catch {
    return files;
  }
  for (const { job, orderedSeconds } of salvage(StateFileSchema, parsed).value?.jobs ?? []) {
    if (job.state !== 'done' || !job.libraryId) continue;
    files.set(job.relativePath, {
      id: job.libraryId,
      projectId: job.projectId,
      projectTitle: job.projectTitle,
      deliverableId: job.deliverableId,
      deliverableName: job.deliverableName,
      serviceSubCategory: job.serviceSubCategory,
      version: job.version,
      format: job.format,
      orderedSeconds: orderedSeconds ?? null,
      ...(job.profileId ? { profileId: job.profileId } : {}),
    });
  }
  return files;
}

/** The queue's file for `entries` (the queue's own map, saved as it is when saved). */
export function createQueueStore(
  deps: Pick<DownloadsDeps, 'stateFile' | 'notices' | 'legacyProfileId' | 'library'>,
  entries: Map<string, Entry>,
) {
  const snapshot = (): StateFile => ({
    version: 1,
    // What a verifying job is doing is shown, never kept: a restored job starts its steps again.
    jobs: [...entries.values()].map(
      ({ job: { verifying: _step, ...job }, request, etag, orderedSeconds }) => ({
        job,
        request,
        etag,
        orderedSeconds,
      }),
    ),
  });
  const saving = createCoalescedTask(async () => {
    await mkdir(dirname(deps.stateFile), { recursive: true });
    // Atomic but not fsynced: an fsync mid-transfer stalls the download's own writes (README.md). After a
    // power cut the worst case is an older queue; a job's byte count is always re-read from its .part.
    await writeFileAtomic(deps.stateFile, JSON.stringify(snapshot()), { fsync: false });
  });
  function persist(): Promise<void> {
    // The queue still works in memory; the next change tries again.
    return saving.run().catch(() => undefined);
  }

  async function restore(): Promise<void> {
    // A damaged file keeps a copy and costs only its bad jobs (state-recovery.ts); what is left is saved below.
    const recovered = recoverStateFile(deps.stateFile, StateFileSchema, {
      label: 'The download queue file',
      notices: deps.notices,
    });
    if (!recovered.value) {
      if (recovered.damaged) await persist();
      return;
    }
    const saved = recovered.value.jobs;
    // Versions before job-keyed parts wrote `<final name>.part`; two jobs with one final name shared it.
    const legacyUsers = new Map<string, number>();
    for (const { job } of saved) {
      if (!FINISHED.has(job.state))
        legacyUsers.set(job.relativePath, (legacyUsers.get(job.relativePath) ?? 0) + 1);
    }
    const untagged = saved.some((s) => !s.job.profileId);
    const legacyProfileId =
      untagged && deps.legacyProfileId ? await deps.legacyProfileId().catch(() => undefined) : undefined;
    for (const saved1 of saved) {
      const job: DownloadJob = { ...saved1.job, rate: 0, etaSeconds: null };
      if (!job.profileId && legacyProfileId) {
        job.profileId = legacyProfileId;
        saved1.request.profileId = legacyProfileId;
      }
      // An app that quit mid-transfer picks up where it was; paused and failed jobs wait for the user.
      if (job.state === 'downloading' || job.state === 'verifying') job.state = 'queued';
      if (job.state === 'canceled')
        await rm(partPathOf(deps.library, job), { force: true }).catch(() => undefined);
      if (!FINISHED.has(job.state)) {
        await adoptLegacyPart(job, legacyUsers.get(job.relativePath) === 1);
        try {
          job.bytes = (await stat(partPathOf(deps.library, job))).size;
        } catch {
          job.bytes = 0; // no .part yet, or a path that fails the library check (the run will report it)
        }
      }
      entries.set(
        job.id,
        newEntry({
          job,
          // Versions before requests named their project: the job knows it.
          request: { ...saved1.request, projectId: saved1.request.projectId ?? job.projectId },
          etag: saved1.etag ?? null,
          orderedSeconds: saved1.orderedSeconds ?? null,
          resolved: null,
        }),
      );
    }
    if (legacyProfileId || recovered.damaged) void persist();
  }

  /**
   * A job persisted by an older version: its path is planned again in the current layout (with the deliverable's
   * short id), and its `<old final name>.part` becomes the job's own part when no other job shared it (a shared
   * part may hold two files' bytes: it is deleted and the job starts over).
   */
  async function adoptLegacyPart(job: DownloadJob, sole: boolean): Promise<void> {
    let planned: string;
    try {
      planned = deps.library.planPath(job);
    } catch {
      return;
    }
    const legacyRel = job.relativePath;
    job.relativePath = planned;
    try {
      const legacy = `${deps.library.resolve(legacyRel)}.part`;
      if (!(await isFile(legacy))) return;
      const own = await deps.library.resolveReal(partPathFor(planned, job.id), true);
      if (sole && !(await isFile(own))) await rename(legacy, own);
      else await rm(legacy, { force: true });
    } catch {
      // Left as it is; the job downloads from the start.
    }
  }

  return { persist, restore, saving: () => saving.running() };
}
