import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import { showsFilesOf, type DownloadJob, type DownloadProgress, type MediaFormat } from '../../../shared/ipc';
import { useApi } from '../bridge';
import { onProfileSwitch, useProfilesStore } from './profiles';
import { loadState } from './support/load-state';
import { rowActions } from './support/row-actions';

/** A job action the producer can take. */
export type DownloadAction = 'pause' | 'resume' | 'cancel';

const ACTIVE_STATES = new Set<DownloadJob['state']>(['queued', 'downloading', 'paused', 'verifying']);

/**
 * The active profile's download jobs as main reports them: listed once, then kept live by `downloads.*` events
 * (another profile's jobs, still running after a switch, are not shown).
 */
export const useDownloadsStore = defineStore('downloads', () => {
  const api = useApi();
  const profiles = useProfilesStore();
  const jobs = ref<DownloadJob[]>([]);
  const { loaded, loading, loadError, run: runLoad } = loadState();
  /** Action in flight per job id, and the error of the last action per job id, shown on that job's row. */
  const rows = rowActions<DownloadAction>();
  const { busy, errors: actionErrors } = rows;
  const startError = shallowRef<unknown>(null);

  const active = computed(() => jobs.value.filter((job) => ACTIVE_STATES.has(job.state)));
  const finished = computed(() => jobs.value.filter((job) => !ACTIVE_STATES.has(job.state)));

  async function load(): Promise<void> {
    await runLoad(async () => {
      jobs.value = sortJobs(await api.downloads.list());
    });
  }

  /** Replaces or adds a job (from an event or an action's answer). */
  function upsert(job: DownloadJob): void {
    if (profiles.state && !showsFilesOf(profiles.state, job.profileId)) return;
    const index = jobs.value.findIndex((j) => j.id === job.id);
    if (index === -1) jobs.value = sortJobs([...jobs.value, job]);
    else jobs.value.splice(index, 1, job);
  }

  /** Applies a throttled progress batch; progress for an unknown job is ignored until it is listed. */
  function applyProgress(batch: DownloadProgress[]): void {
    for (const p of batch) {
      const job = jobs.value.find((j) => j.id === p.id);
      if (!job) continue;
      job.bytes = p.bytes;
      job.total = p.total;
      job.rate = p.rate;
      job.etaSeconds = p.etaSeconds;
    }
  }

  /** Subscribes to main's download events; the owner flushes the returned disposer. */
  function listen(): () => void {
    const offProgress = api.on('downloads.progress', applyProgress);
    const offChanged = api.on('downloads.changed', upsert);
    const offSwitch = onProfileSwitch(profiles, () => void load());
    return () => {
      offProgress();
      offChanged();
      offSwitch();
    };
  }

  async function act(id: string, action: DownloadAction): Promise<void> {
    const job = await rows.run(id, action, () => api.downloads[action]({ id }));
    if (job) upsert(job);
  }

  /** Queues one file of a deliverable; returns the job or null (the error is in `startError`). */
  async function start(request: {
    deliverableId: string;
    projectId: string;
    format: MediaFormat;
    version?: number;
  }): Promise<DownloadJob | null> {
    startError.value = null;
    try {
      const job = await api.downloads.start(request);
      upsert(job);
      return job;
    } catch (e) {
      startError.value = e;
      return null;
    }
  }

  return {
    jobs,
    loaded,
    loading,
    loadError,
    actionErrors,
    busy,
    startError,
    active,
    finished,
    load,
    listen,
    upsert,
    applyProgress,
    start,
    pause: (id: string) => act(id, 'pause'),
    resume: (id: string) => act(id, 'resume'),
    cancel: (id: string) => act(id, 'cancel'),
  };
});

/** Newest first, so a fresh "download all" lands at the top. */
function sortJobs(list: DownloadJob[]): DownloadJob[] {
  return [...list].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** Fraction done (0..1), or null when the size is unknown. */
export function progressOf(job: Pick<DownloadJob, 'bytes' | 'total' | 'state'>): number | null {
  if (job.state === 'done') return 1;
  if (!job.total || job.total <= 0) return null;
  return Math.min(1, job.bytes / job.total);
}
