import type { DownloadJob, DownloadProgress, EventName, EventPayloads } from '../../../../shared/ipc';

/** How the taskbar (Windows, Linux Unity) or dock (macOS) shows downloads: a 0..1 fraction, indeterminate, or none. */
export type TaskbarProgress =
  { mode: 'none' } | { mode: 'normal'; fraction: number } | { mode: 'indeterminate' };

/**
 * Follows `downloads.progress` / `downloads.changed` and reports the overall fraction of the running downloads
 * (bytes over total bytes). A download without a known size makes the bar indeterminate; when the last one ends,
 * the bar goes away. Reports only on change, since the OS call is not free.
 */
export function createTaskbarProgress(show: (progress: TaskbarProgress) => void) {
  const running = new Map<string, { bytes: number; total: number | null }>();
  let last = '';
  const publish = () => {
    let progress: TaskbarProgress;
    const jobs = [...running.values()];
    if (jobs.length === 0) progress = { mode: 'none' };
    else if (jobs.some((j) => j.total === null || j.total <= 0)) progress = { mode: 'indeterminate' };
    else {
      const total = jobs.reduce((n, j) => n + (j.total ?? 0), 0);
      const bytes = jobs.reduce((n, j) => n + Math.min(j.bytes, j.total ?? 0), 0);
      // Two decimals are finer than any taskbar draws.
      progress = { mode: 'normal', fraction: Math.round((bytes / total) * 100) / 100 };
    }
    const key = JSON.stringify(progress);
    if (key === last) return;
    last = key;
    show(progress);
  };

  return {
    /** An event-bus sink. */
    sink<E extends EventName>(event: E, payload: EventPayloads[E]) {
      if (event === 'downloads.progress') {
        for (const p of payload as DownloadProgress[]) running.set(p.id, { bytes: p.bytes, total: p.total });
      } else if (event === 'downloads.changed') {
        const job = payload as DownloadJob;
        if (job.state === 'downloading') running.set(job.id, { bytes: job.bytes, total: job.total });
        else running.delete(job.id);
      } else return;
      publish();
    },
  };
}

/** Electron's `win.setProgressBar` arguments for a progress value (−1 removes the bar). */
export function progressBarArgs(
  progress: TaskbarProgress,
): [number, { mode: 'none' | 'normal' | 'indeterminate' }] {
  if (progress.mode === 'normal') return [progress.fraction, { mode: 'normal' }];
  if (progress.mode === 'indeterminate') return [2, { mode: 'indeterminate' }];
  return [-1, { mode: 'none' }];
}
