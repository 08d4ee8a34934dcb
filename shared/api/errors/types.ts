// What a catalog entry is: the service operations an error can belong to, where a code comes from, and the
// heading and body statuses of an answer.
/** Every service operation an error can belong to. */
export const OPERATIONS = [
  'createProject',
  'listProjects',
  'getProject',
  'cancelProject',
  'search',
  'listDeliverables',
  'approveAll',
  'getDeliverable',
  'approveDeliverable',
  'rejectDeliverable',
  'selectWinner',
  'listVersions',
  'createRevision',
  'listCategories',
  'getAttributes',
  'getAttributeValues',
  'listTracks',
  'getTrack',
  'quote',
  'signIn',
] as const;
export type Operation = (typeof OPERATIONS)[number];

/** Where a code comes from. */
export type ErrorSource = 'spec' | 'facts' | 'extension' | 'client';

/** Heading (HTTP) status and the `status` field of the body; the spec has codes where they differ. */
export interface StatusPair {
  readonly http: number;
  readonly body: number;
}

/** One catalog entry. */
export interface ErrorEntry<T extends string = string> {
  readonly type: T;
  /** Heading status when no per-operation override applies (0 for client-side codes). */
  readonly http: number;
  /** Body `status` when no per-operation override applies. */
  readonly body: number;
  /** Statuses that differ for one operation (e.g. PROJECT_NO_EXIST on cancel). */
  readonly overrides?: Readonly<Partial<Record<Operation, StatusPair>>>;
  readonly operations: readonly Operation[];
  readonly source: ErrorSource;
  /** Short producer-facing headline. */
  readonly title: string;
  /** What the producer can do about it. */
  readonly hint: string;
  /** Default `message` of an error body. */
  readonly message: string;
}
