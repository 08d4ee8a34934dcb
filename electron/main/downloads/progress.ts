/**
 * The queue's progress events: while any job downloads, every `intervalMs` each downloading job's rate and time
 * left are measured and the jobs whose byte count moved are sent in one 'downloads.progress' event.
 */
import type { DownloadProgress } from '../../../shared/ipc';
import type { EventBus } from '../kernel/events';
import type { Entry } from './queue-entry';

export function createProgressTicker(
  entries: Map<string, Entry>,
  emit: EventBus['emit'],
  intervalMs: number,
) {
  let closed = false;
  let ticker: NodeJS.Timeout | null = null;
  const lastSent = new Map<string, number>();
  function tick() {
    const progress: DownloadProgress[] = [];
    const t = Date.now();
    for (const { job, meter } of entries.values()) {
      if (job.state !== 'downloading') continue;
      meter.sample(t, job.bytes);
      job.rate = meter.rate();
      job.etaSeconds =
        job.total !== null && job.rate > 0 ? Math.max(0, (job.total - job.bytes) / job.rate) : null;
      if (lastSent.get(job.id) === job.bytes) continue;
      lastSent.set(job.id, job.bytes);
      progress.push({
        id: job.id,
        bytes: job.bytes,
        total: job.total,
        rate: job.rate,
        etaSeconds: job.etaSeconds,
      });
    }
    if (progress.length > 0) emit('downloads.progress', progress);
    if (![...entries.values()].some((e) => e.job.state === 'downloading') && ticker) {
      clearInterval(ticker);
      ticker = null;
    }
  }
  const startTicker = () => {
    if (!ticker && !closed) {
      ticker = setInterval(tick, intervalMs);
      ticker.unref();
    }
  };

  return {
    start: startTicker,
    /** App quit: no more events, and none started again. */
    close() {
      closed = true;
      if (ticker) clearInterval(ticker);
      ticker = null;
    },
  };
}
