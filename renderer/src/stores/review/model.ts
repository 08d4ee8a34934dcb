/** The review's shapes (its inputs, versions and actions) and the pure rules about versions and files. */
import type { Deliverable, DeliverableVersion, Project } from '../../../../shared/api';
import { isAudioFormat, isIpcError, type LibraryItem } from '../../../../shared/ipc';

/**
 * Errors that mean the service gave no answer (offline) and main had nothing loaded for it (NOT_LOADED_OFFLINE):
 * the review goes on from what the project page last showed.
 */
const UNREACHABLE = new Set(['NETWORK_UNREACHABLE', 'TIMEOUT', 'SANDBOX_UNAVAILABLE', 'NOT_LOADED_OFFLINE']);
export const isUnreachable = (error: unknown) => isIpcError(error) && UNREACHABLE.has(error.type);

/** What a review can fall back on when the service cannot be reached: what the project page last listed. */
export interface ReviewCache {
  deliverable?: Deliverable | null;
  project?: Project | null;
}

/** A review action; each keeps its own busy flag and error, shown next to its button. */
export type ReviewAction = 'approve' | 'reject' | 'revision' | 'winner' | 'download';

/** Input of a rejection. */
export interface RejectInput {
  reason: string;
  /** Optional on a live account (the docs name only `genderAndAgeChange`); absent, none is sent. */
  reasonCode?: string;
  /** Required by the service when reasonCode is `genderAndAgeChange`. */
  newGenderAndAge?: string;
}

/** Input of a revision request. */
export interface RevisionInput {
  instructions: string;
  revisionCode?: string;
  /** Audio ads only: script | audio | both. */
  reason?: string;
  checkTalent: boolean;
}

/** One playable version in the A/B list (1-based like the library's `version`). */
export interface ReviewVersion {
  number: number;
  created: string | null;
  instructions: string | null;
  /** When the revision behind this version was asked for, where the service says it. */
  requested: string | null;
  urls: DeliverableVersion['urls'];
  /** The downloaded audio file of this version, if any (wav preferred). */
  local: LibraryItem | null;
}

/** `statusChanged` of a versions answer: not in the spec; the sandbox (and maybe the service) sends it. */
export function statusChangedOf(answer: object): string | null {
  const value = (answer as { statusChanged?: unknown }).statusChanged;
  return typeof value === 'string' ? value : null;
}

/** Deliverable categories that carry audio (voice over and post production). */
export function isAudioDeliverable(d: Pick<Deliverable, 'serviceSubCategory' | 'urls'>): boolean {
  return d.serviceSubCategory !== 'scriptwriting' && Boolean(d.urls.wav || d.urls.mp3);
}

/** Picks the library file to play and analyse for a version: wav over mp3 (lossless for QA). */
export function localAudioFor(
  items: LibraryItem[],
  deliverableId: string,
  version: number,
): LibraryItem | null {
  const audio = items.filter(
    (i) => i.deliverableId === deliverableId && i.version === version && isAudioFormat(i.format),
  );
  return audio.find((i) => i.format === 'wav') ?? audio[0] ?? null;
}
