/**
 * What a download request becomes: the unfinished job that already stands for it (the same file of the same
 * profile, of that version when one is named), or a new queued job for the file the service named.
 */
import { randomUUID } from 'node:crypto';
import type { DownloadJob } from '../../../shared/ipc';
import type { DownloadRequest, ResolvedDownload } from './job';
import { FINISHED, type Entry } from './queue-entry';

/** The unfinished job of the request's file and profile, of `version` (any version when undefined). */
export function unfinishedJobFor(
  entries: Map<string, Entry>,
  request: DownloadRequest,
  version: number | undefined,
): Entry | undefined {
  return [...entries.values()].find(
    (entry) =>
      entry.request.profileId === request.profileId &&
      entry.request.deliverableId === request.deliverableId &&
      entry.request.format === request.format &&
      (version === undefined || entry.job.version === version) &&
      !FINISHED.has(entry.job.state),
  );
}

/** A new queued job for the file the service named, filed under `relativePath`. */
export function newJob(
  request: DownloadRequest,
  resolved: ResolvedDownload,
  relativePath: string,
  createdAt: Date,
): DownloadJob {
  return {
    id: randomUUID(),
    ...(request.profileId ? { profileId: request.profileId } : {}),
    projectId: resolved.projectId,
    projectTitle: resolved.projectTitle,
    deliverableId: request.deliverableId,
    deliverableName: resolved.deliverableName,
    serviceSubCategory: resolved.serviceSubCategory,
    version: resolved.version,
    format: request.format,
    state: 'queued',
    bytes: 0,
    total: null,
    rate: 0,
    etaSeconds: null,
    error: null,
    relativePath,
    libraryId: null,
    createdAt: createdAt.toISOString(),
  };
}
