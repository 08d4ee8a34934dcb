/** The profiles service's interfaces: what it needs (the sandbox, stores, events) and what it offers. */
import type { EventPayloads, ProfileSummary, ProfilesState, SandboxStatus } from '../../../shared/ipc';
import type { ApiClient, ApiClientOptions } from '../api';
import type { SecretStore } from '../secrets';
import type { SettingsStore } from './settings-store';

/** Where the sandbox listens, its token, and in HTTPS mode its certificate (PEM), the only one its profile trusts. */
export interface SandboxConnection {
  url: string;
  token: string;
  certificate?: string;
}

/** Starts the embedded sandbox on demand (idempotent) and tells where it listens. */
export interface SandboxLauncher {
  ensure(): Promise<SandboxConnection>;
  /** Its process's state; a fixed sandbox (tests) without it is always `running`. */
  status?(): SandboxStatus;
  /** Calls back on every status change; returns the unsubscribe. */
  onStatus?(listener: (status: SandboxStatus) => void): () => void;
  /** Starts it again now (after a crash, or to recover a stuck one). */
  restart?(): Promise<SandboxStatus>;
}

export type ApiClientFactory = (options: ApiClientOptions) => ApiClient;

/** Anything with the event bus's emit (electron/main/kernel/events.ts). */
export interface ProfileEvents {
  emit<E extends 'profile.changed'>(event: E, payload: EventPayloads[E]): void;
}

export interface ProfilesDeps {
  settingsStore: SettingsStore;
  secrets: SecretStore;
  sandbox: SandboxLauncher;
  /** Defaults to createApiClient. */
  apiClientFactory?: ApiClientFactory;
  events: ProfileEvents;
  now?: () => Date;
  newId?: () => string;
  /** Per-attempt timeout of the clients made here. */
  timeoutMs?: number;
  /** A call with no outcome after this long shows its profile unreachable (default STALL_MS). */
  stallMs?: number;
}

/**
 * How long a call may go without an answer before the sidebar says the service is unreachable: a hung service
 * shows within 5 s, not after the client's timeout (20 s, more with retries). The call itself goes on; its answer,
 * if it comes, makes the profile reachable again.
 */
export const STALL_MS = 4_000;

export interface AddProfileInput {
  name: string;
  baseUrl: string;
  token: string;
}

export interface SignInProfileInput {
  name: string;
  baseUrl: string;
  email: string;
  password: string;
}

/** A new token for an existing profile whose session expired: signed in again, or pasted. */
export type RenewProfileInput =
  { id: string; email: string; password: string } | { id: string; token: string };

export interface ActiveProfile {
  profile: ProfileSummary;
  client: ApiClient;
  /**
   * The certificate authorities (PEM) this profile trusts instead of the system's, for its media downloads too:
   * the sandbox's own certificate in HTTPS mode. Absent: the system trust store.
   */
  ca?: string;
}

export interface Profiles {
  state(): Promise<ProfilesState>;
  /** The active profile with a client for it (cached per profile; the sandbox is started if needed). */
  active(): Promise<ActiveProfile>;
  /** Any profile with a client for it, e.g. the one a download was started under (PROFILE_NOT_FOUND if removed). */
  get(id: string): Promise<ActiveProfile>;
  /** Checks the token with a test call (listProjects pageSize 1), saves it, activates the profile. */
  add(input: AddProfileInput): Promise<ProfilesState>;
  /** Exchanges email + password for a token (POST /users/auth), then adds like `add`. The password is not kept. */
  signIn(input: SignInProfileInput): Promise<ProfilesState>;
  /** Gives a profile whose session expired a new token (checked first); its calls then work again. */
  renew(input: RenewProfileInput): Promise<ProfilesState>;
  activate(id: string): Promise<ProfilesState>;
  /** Deletes a service profile and its token; the Sandbox profile cannot be removed. */
  remove(id: string): Promise<ProfilesState>;
  /** Restarts the embedded sandbox's process now; its status is in the answer (and in `profile.changed`). */
  restartSandbox(): Promise<ProfilesState>;
  /**
   * The account a profile signs in as (account.ts): decisions are kept under it, so they survive the profile's
   * removal and come back when the same account is added again. PROFILE_NOT_FOUND for an unknown id.
   */
  account(id: string): Promise<string>;
}
