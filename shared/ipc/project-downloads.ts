/**
 * What "Download all" fetches from a project: the rule main applies and the renderer counts with, so the number
 * the producer is shown is the number of files queued.
 */
import type { Deliverable } from '../api';
import type { MediaFormat } from './types';

/** Formats a producer can choose for a whole project (a script's text is read in the app, not bulk-fetched). */
export const BULK_FORMATS = ['wav', 'mp3', 'pdf'] as const;
export type BulkFormat = (typeof BULK_FORMATS)[number];

/** The choice made in the "Download all" dialog; omitted fields take the defaults below. */
export interface ProjectDownloadSelection {
  /** Default: every bulk format. */
  formats?: readonly MediaFormat[];
  /** Rejected takes (replaced after a rejection, or contest entries not picked); default false. */
  includeRejected?: boolean;
}

/** One file to queue. */
export interface ProjectDownload {
  deliverableId: string;
  format: MediaFormat;
}

/** Which formats a deliverable offers: audio as wav + mp3, scripts as pdf + their text. */
export function formatsOf(deliverable: Pick<Deliverable, 'urls'>): MediaFormat[] {
  const urls = deliverable.urls as Record<string, unknown>;
  const out: MediaFormat[] = [];
  for (const format of BULK_FORMATS) if (typeof urls[format] === 'string') out.push(format);
  if (typeof urls.content === 'string') out.push('txt');
  return out;
}

/** A rejected take has been superseded (its replacement is a deliverable of its own) or lost a contest. */
export function isSuperseded(deliverable: Pick<Deliverable, 'status'>): boolean {
  return deliverable.status === 'rejected';
}

/** The files "Download all" queues for these deliverables, in their order. */
export function projectDownloads(
  deliverables: ReadonlyArray<Pick<Deliverable, 'id' | 'status' | 'urls'>>,
  selection: ProjectDownloadSelection = {},
): ProjectDownload[] {
  const formats: readonly MediaFormat[] = selection.formats ?? BULK_FORMATS;
  return deliverables
    .filter((d) => selection.includeRejected || !isSuperseded(d))
    .flatMap((d) =>
      formatsOf(d)
        .filter((format) => formats.includes(format))
        .map((format) => ({ deliverableId: d.id, format })),
    );
}
