import type { ProjectListItem } from '../api';
import type { AccountKind } from '../api/account-kind';
import type { AudioAnalysis, DeliveryTargetId } from '../audio';
import type { ReviewCounts } from '../review';
import type { Cancellation } from '../review/cancellation';

/** How the token is kept at rest; `secure: false` makes the UI show a warning banner. */
export interface SecretsBackendInfo {
  kind: 'safeStorage' | 'basic_text' | 'file' | 'memory';
  secure: boolean;
  warning: string | null;
}

export interface AppInfo {
  name: string;
  version: string;
  mode: 'electron' | 'browser';
  platform: string;
  versions: Record<string, string>;
  secrets: SecretsBackendInfo;
}

/** A state file main found damaged and recovered: what was reset, and where the damaged copy is kept. */
export interface StateNotice {
  /** The file's name, e.g. `browser-mode-settings.json`. */
  file: string;
  /** The file in the user's words, e.g. "Settings". */
  label: string;
  /** What was dropped (paths like `preferences.concurrency`), or `(everything)`. */
  reset: string[];
  /** The copy of the damaged file, or null when it could not be kept. */
  copy: string | null;
  /** One sentence for the user. */
  message: string;
}

/** A service connection as the renderer sees it: never the token itself. */
export interface ProfileSummary {
  id: string;
  name: string;
  baseUrl: string;
  kind: AccountKind;
  hasToken: boolean;
  /** The service refused the saved token (it expired): sign in again. */
  signedOut: boolean;
  /** The outcome of the last real call to this profile's service; `unknown` before the first. */
  reachability: Reachability;
  createdAt: string;
  /** When the saved token stops being accepted (ISO), when it says so (a JWT's `exp`); absent when unknown. */
  sessionEndsAt?: string;
  /** The email last signed in with, to prefill signing in again; absent for a pasted token and the Sandbox. */
  email?: string;
}

export interface ProfilesState {
  profiles: ProfileSummary[];
  activeId: string;
  secrets: SecretsBackendInfo;
  /** The embedded sandbox's process, which serves the Sandbox profile. */
  sandbox: SandboxStatus;
}

/**
 * The embedded sandbox runs as a process of its own: `idle` until first used, `unavailable` after it stopped or
 * could not start (with the reason; `restarting` while an automatic restart is scheduled). `sandbox.restart`
 * starts it again now.
 */
export interface SandboxStatus {
  state: 'idle' | 'starting' | 'running' | 'unavailable';
  reason?: string;
  restarting?: boolean;
}

/** The file formats a deliverable may be downloaded in. */
export const MEDIA_FORMATS = ['wav', 'mp3', 'pdf', 'txt'] as const;
export type MediaFormat = (typeof MEDIA_FORMATS)[number];

/** The formats that are audio: played, measured and drawn as waveforms. */
export const isAudioFormat = (format: MediaFormat): format is 'wav' | 'mp3' =>
  format === 'wav' || format === 'mp3';

export type DownloadState =
  'queued' | 'downloading' | 'paused' | 'verifying' | 'done' | 'failed' | 'canceled';

/** Which file of which deliverable: what a download fetches and a library item keeps. */
export interface DeliverableFile {
  projectId: string;
  projectTitle: string;
  deliverableId: string;
  deliverableName: string;
  serviceSubCategory: string;
  /** 1-based version of the deliverable this file belongs to (latest unless asked otherwise). */
  version: number;
  format: MediaFormat;
}

/** The profile (account) a file was fetched under: the Downloads and Library screens show the active profile's. */
export interface FetchedUnder {
  /** Absent only on entries of versions before profiles kept their own files (given one at the next start). */
  profileId?: string;
}

export interface DownloadJob extends DeliverableFile, FetchedUnder {
  id: string;
  state: DownloadState;
  bytes: number;
  total: number | null;
  /** Bytes per second over the last few seconds. */
  rate: number;
  etaSeconds: number | null;
  error: { type: string; message: string } | null;
  relativePath: string;
  libraryId: string | null;
  createdAt: string;
  /**
   * While `verifying`, what the job is doing: checking the size, waiting for the figures measured as the bytes
   * streamed in, saving the file into the library, or measuring the saved file (when streaming gave no figures).
   */
  verifying?: 'checking' | 'measuring' | 'saving' | 'analysing';
}

/** The moving part of a download, sent several times a second. */
export type DownloadProgress = Pick<DownloadJob, 'id' | 'bytes' | 'total' | 'rate' | 'etaSeconds'>;

export interface LibraryItem extends DeliverableFile, FetchedUnder {
  id: string;
  relativePath: string;
  size: number;
  sha256: string;
  downloadedAt: string;
  /** Ordered length in seconds (audio ads), for the duration QA check. */
  orderedSeconds: number | null;
  analysis: AudioAnalysis | null;
  hasPeaks: boolean;
  /** Data not yet confirmed on disk; re-verified at start if the app stopped before. */
  unsynced?: boolean;
  /**
   * The take's status as last read from the service or decided here (`approved`, `rejected`, `reviewable`…),
   * added when the library is listed, never kept in the manifest; absent when Takedesk has not read it.
   */
  takeStatus?: string;
}

/** A project's QA target and where it came from: its purpose, or the producer's pick. */
export interface ProjectQaTarget {
  target: DeliveryTargetId;
  from: 'purpose' | 'producer';
}

export interface DeliverableReadyEvent {
  profileId: string;
  projectId: string;
  projectTitle: string;
  deliverableId: string;
  deliverableName: string;
  serviceSubCategory: string;
}

export interface WatcherStatus {
  watching: number;
  lastPollAt: string | null;
  nextPollInMs: number | null;
  failing: boolean;
  /**
   * How long one round of the projects in work takes at the budget that applies (ms): the usual interval, or
   * longer when the budget cannot check them all in it — the budget wins and the producer is told. Null when none
   * are watched.
   */
  cycleMs?: number | null;
}

/** When the watcher last read one project's deliverables, and when it will again. */
export interface WatchedProject {
  /** False when the watcher does not look at it (settled, canceled, or not listed yet). */
  watched: boolean;
  checkedAt: string | null;
  /** About when the next check falls due (ms from now); null when it is not watched. */
  nextInMs: number | null;
}

/** Waveform peaks ready for wavesurfer.js: one array per channel, values in -1..1. */
export interface PeaksPayload {
  duration: number;
  peaks: number[][];
}

/**
 * Peaks of a file still streaming into the library: `peaks` span the whole expected length (the part not yet
 * received is silence), `received` seconds of it are drawn from the bytes on disk.
 */
export interface LivePeaks extends PeaksPayload {
  received: number;
}

/** A review decision as the outbox keeps it until the service has it. */
export type OutboxDecision =
  | { kind: 'approve'; deliverableId: string }
  | { kind: 'approveAll'; projectId: string }
  | {
      kind: 'reject';
      deliverableId: string;
      reason?: string;
      reasonCode?: string;
      newGenderAndAge?: string;
    }
  | {
      kind: 'revision';
      deliverableId: string;
      instructions: string;
      reason?: string;
      revisionCode?: string;
      checkTalent?: boolean;
    }
  | { kind: 'winner'; deliverableId: string }
  | { kind: 'cancel'; projectId: string; reason: string; reasonCode: string };

/**
 * What the producer had in front of them when deciding: the version they heard and the status they saw (a take's
 * decisions), the takes that were ready for review ("approve all"), and the take's project (decisions of one
 * project reach the service in the order they were made). A waiting decision is never applied to a version the
 * producer did not hear.
 */
export interface OutboxHeard {
  version?: number;
  status?: string;
  projectId?: string;
  reviewable?: string[];
  /**
   * "Approve all": per take in `reviewable`, how many versions the producer had loaded when choosing it (0: its
   * versions were never loaded on this computer). Recorded by main from what was read; absent in decisions stored
   * before it was kept.
   */
  versions?: Record<string, number>;
}

/**
 * `queued` waits for the service (`nextAttemptAt` after a gateway error or a 429); `sending` is on its way; `sent` is
 * done (`outcome` says how); `held` means the take changed since the producer decided (a newer version, another
 * status: both sides in `conflict`), so it waits for them to decide again or discard it; `failed` means the service
 * refused it (its words in `conflict`). Later decisions of the same project wait behind a held or failed one.
 */
export type OutboxState = 'queued' | 'sending' | 'sent' | 'held' | 'failed';

export interface OutboxItem {
  id: string;
  profileId: string;
  decision: OutboxDecision;
  heard: OutboxHeard | null;
  /** What the decision is about, in the producer's words ("“1” in Spring promo"). */
  subject: string;
  state: OutboxState;
  /** A send may have reached the service without an answer: it is read before anything is sent again. */
  unconfirmed: boolean;
  queuedAt: string;
  sentAt: string | null;
  /** When a queued decision is tried next (after a gateway error or a 429), if it waits for a time. */
  nextAttemptAt: string | null;
  /** After sending: what happened, in plain words. */
  outcome: string | null;
  /** What was asked, and what the service has now (held) or said (failed). */
  conflict: { asked: string; service: string } | null;
}

/** A URL the renderer can hand to an <audio> element or open: served by main's media route. */
export interface MediaUrl {
  url: string;
  contentType: string;
}

/** What a native menu item asks the renderer to do. */
export const MENU_COMMANDS = [
  'project.new',
  'navigate.projects',
  'navigate.downloads',
  'navigate.library',
  'navigate.settings',
  'review.playPause',
  'review.back',
  'review.stop',
  'review.forward',
  'review.seekBack',
  'review.seekForward',
  'review.seekBackLong',
  'review.seekForwardLong',
  'review.start',
  'review.end',
  'review.approve',
  'review.reject',
  'review.revision',
  'review.previousVersion',
  'review.nextVersion',
  'updates.check',
  'updates.install',
] as const;
export type MenuCommand = (typeof MENU_COMMANDS)[number];

/** The app updater's state; `ready` means "restart to update" can be offered. */
export type UpdateStatus =
  | { state: 'disabled'; reason: 'dev' | 'browser' | 'unsupported' }
  | { state: 'idle'; checkedAt: string | null }
  | { state: 'checking' }
  | { state: 'available'; version: string }
  | { state: 'downloading'; version: string; percent: number }
  | { state: 'ready'; version: string }
  | { state: 'error'; message: string };

/** Whether the active profile's service answered its last real call (the app's or the watcher's). */
export type Reachability = 'unknown' | 'reachable' | 'unreachable';

/** One project of the review index: its list row and its deliverables' counts (null: never read yet). */
export interface ProjectReview {
  project: ProjectListItem;
  counts: ReviewCounts | null;
  /**
   * Counts kept from an earlier run (ISO time they were last read): shown at once after a restart, marked as such,
   * until the watcher or the app reads that project's deliverables again. Absent once read since this start.
   */
  asOf?: string;
  /** Why it was canceled and what it cost, when it was canceled from Takedesk. */
  cancellation?: Cancellation;
  /**
   * The newest activity the app has seen on the project (ISO): a take's newest version date it read, or when it
   * first saw a take delivered. Absent until it has seen one (the service has no update time for a project).
   */
  lastActivity?: string;
}

/**
 * What main knows of a profile's projects and their deliverables, from the listings and deliverable reads it
 * already made (the watcher's and the app's): no extra requests. Keyed by profile; never another's.
 */
export interface ReviewSnapshot {
  profileId: string;
  projects: ProjectReview[];
}
