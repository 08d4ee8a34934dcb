import { randomBytes, randomUUID } from 'node:crypto';

/** Scopes a sandbox token can carry (sandbox choice: the live scope names are not shown). */
export const SCOPES = ['search', 'versions'] as const;
export type Scope = (typeof SCOPES)[number];

/** Sign-in credentials of the two seeded users (documented in README.md). */
export const SANDBOX_USERS = [
  { id: 'user-1', email: 'producer@sandbox.test', password: 'sandbox', name: 'Sandbox Producer' },
  { id: 'user-2', email: 'other@sandbox.test', password: 'sandbox', name: 'Other Producer' },
] as const;

export interface TokenRecord {
  token: string;
  userId: string;
  scopes: Scope[];
  /** Tokens from sign-in expire when the sandbox has a token lifetime (epoch ms); the built-in ones never do. */
  expiresAt?: number;
}

/** A media file a deliverable version links to; the descriptor is what the media store generates from. */
export interface MediaRef {
  key: string;
  ext: 'wav' | 'mp3' | 'pdf';
}

export interface VersionRecord {
  created: string;
  instructions: string | null;
  /** When the revision behind this version was asked for (sandbox record; versions endpoint, not live shapes). */
  requested?: string;
  media: Partial<Record<'wav' | 'mp3' | 'pdf', MediaRef>>;
  content?: string;
}

export interface DeliverableRecord {
  id: string;
  projectId: string;
  serviceId: string;
  serviceSubCategory: string;
  name: string;
  status: string;
  created: string;
  /** When the status last changed (a delivery or a decision); the versions endpoint shows it (not live shapes). */
  statusChanged?: string;
  talent: { id: string; name: string };
  genderAndAge?: string;
  language?: string;
  /** Text the voice reads (a script part, the whole script, or the written ad script). */
  text?: string;
  seconds?: number;
  /** Contest entry number (1-based), when the project is a contest. */
  entry?: number;
  versions: VersionRecord[];
  pendingRevision?: {
    instructions: string;
    reason: string | null;
    revisionCode: string | null;
    checkTalent: boolean;
    requested?: string;
  };
  rejection?: { reason: string | null; reasonCode: string | null; newGenderAndAge: string | null };
}

export interface ServiceRecord {
  id: string;
  subCategory: string;
  price: number;
  status: string;
  units: number;
  unitType: string;
  [field: string]: unknown;
}

export interface ProjectRecord {
  id: string;
  ownerId: string;
  title: string;
  mainService: string;
  fulfillmentType: string;
  created: string;
  status: string;
  price: number;
  fake: boolean;
  test: boolean;
  remarks: string;
  services: ServiceRecord[];
  winnerId?: string;
  cancel?: { reason: string; reasonCode: string };
  /** Insertion order, for stable listing. */
  seq: number;
}

/** Work the simulated creatives still owe: a first delivery, a requested revision, or a replacement. */
export interface WorkItem {
  id: string;
  projectId: string;
  kind: 'initial' | 'revision' | 'replacement';
  deliverableId?: string;
  /** Epoch ms when it arrives on its own; null with manual delivery. */
  dueAt: number | null;
  /**
   * Set when delivering it threw (e.g. a state file holding what the media store cannot make): the
   * item stays in the state for inspection, is not owed any more and is never tried again.
   */
  failed?: { at: string; reason: string };
}

/** Everything the sandbox persists: one JSON document. */
export interface SandboxState {
  version: 1;
  tokens: { full: string; noScopes: string; otherUser: string };
  tokenRecords: TokenRecord[];
  projects: Record<string, ProjectRecord>;
  deliverables: Record<string, DeliverableRecord>;
  work: WorkItem[];
  /** Talent id -> ISO date until which the talent is away. */
  talentAway: Record<string, string>;
  seq: number;
}

/** A JWT-looking opaque token (the live service hands out `eyJhbGciOiJIUzUxMiIs…`); only its identity matters. */
export function mintToken(userId: string, scopes: readonly Scope[]): string {
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const header = b64({ alg: 'HS512', typ: 'JWT' });
  const payload = b64({ sub: userId, scopes, jti: randomUUID() });
  return `${header}.${payload}.${randomBytes(32).toString('base64url')}`;
}

/** A fresh state with new random tokens for the seeded users. */
export function createInitialState(): SandboxState {
  const [first, second] = SANDBOX_USERS;
  const full = mintToken(first.id, SCOPES);
  const noScopes = mintToken(first.id, []);
  const otherUser = mintToken(second.id, SCOPES);
  return {
    version: 1,
    tokens: { full, noScopes, otherUser },
    tokenRecords: [
      { token: full, userId: first.id, scopes: [...SCOPES] },
      { token: noScopes, userId: first.id, scopes: [] },
      { token: otherUser, userId: second.id, scopes: [...SCOPES] },
    ],
    projects: {},
    deliverables: {},
    work: [],
    talentAway: {},
    seq: 0,
  };
}

/** Wipes projects and work but keeps the tokens (POST /_sandbox/reset). */
export function resetState(state: SandboxState): void {
  state.projects = {};
  state.deliverables = {};
  state.work = [];
  state.talentAway = {};
  state.seq = 0;
}

/** Accepts a parsed state file only if it has the shape this version writes. */
export function isSandboxState(value: unknown): value is SandboxState {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<SandboxState>;
  return (
    v.version === 1 &&
    typeof v.tokens?.full === 'string' &&
    Array.isArray(v.tokenRecords) &&
    isRecord(v.projects) &&
    isRecord(v.deliverables) &&
    Array.isArray(v.work)
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Makes a loaded state safe to run: work items without an id, project and kind are dropped (nothing
 * could deliver them), and fields older files lack get their defaults. Returns the number dropped.
 * Items that are well formed but cannot be delivered are left to the engine, which marks them failed.
 */
export function repairState(state: SandboxState): number {
  const before = state.work.length;
  state.work = state.work.filter(
    (w: unknown) =>
      isRecord(w) &&
      typeof w.id === 'string' &&
      typeof w.projectId === 'string' &&
      (w.kind === 'initial' || w.kind === 'revision' || w.kind === 'replacement'),
  );
  if (!isRecord(state.talentAway)) state.talentAway = {};
  if (typeof state.seq !== 'number' || !Number.isFinite(state.seq)) state.seq = 0;
  return before - state.work.length;
}
