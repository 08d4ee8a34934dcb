/**
 * Service connections: {name, base URL} in the settings store, the token only in the SecretStore.
 * The Sandbox profile exists from the first start and stays active until a real account is added.
 * Nothing returned here carries a token (issue 4, item 3).
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { ProfileSummary, ProfilesState, Reachability } from '../../../shared/ipc';
import { accountKey } from './account';
import { createApiClient, type ApiClient } from '../api';
import { salvage } from '../kernel/state-recovery';
import { normalizeBaseUrl, outcomeOf, ProfileError } from './profile-checks';
import {
  STALL_MS,
  type ActiveProfile,
  type Profiles,
  type ProfilesDeps,
  type SandboxConnection,
} from './profile-types';
import { readTokenClaims, type TokenClaims } from './token-claims';

export * from './profile-checks';
export * from './profile-types';

/** Id of the built-in Sandbox profile. */
export const SANDBOX_PROFILE_ID = 'sandbox';
const SETTINGS_KEY = 'profiles';
const tokenKey = (id: string) => `profile-token:${id}`;

const StoredProfile = z.object({
  id: z.string().min(1),
  name: z.string(),
  baseUrl: z.string(),
  kind: z.enum(['sandbox', 'service']),
  createdAt: z.string(),
  /**
   * Whose account the profile is: the token's subject and the email signed in with, as far as known. A new
   * sign-in must be the same account: the profile's outbox and library go out and stay under it.
   */
  account: z.object({ subject: z.string().optional(), email: z.string().optional() }).optional(),
  /** The email last signed in with (not a secret): signing in again starts from it. */
  email: z.string().optional(),
});
type StoredProfile = z.infer<typeof StoredProfile>;
/** The profiles as kept in the settings store (a profile that fails this is dropped alone at start). */
export const StoredProfiles = z.object({ profiles: z.array(StoredProfile), activeId: z.string() });
type StoredProfiles = z.infer<typeof StoredProfiles>;

/** Creates the profiles service. */
export function createProfiles(deps: ProfilesDeps): Profiles {
  const { settingsStore, secrets, sandbox, events } = deps;
  const makeClient = deps.apiClientFactory ?? createApiClient;
  const now = deps.now ?? (() => new Date());
  const newId = deps.newId ?? randomUUID;
  const timeoutMs = deps.timeoutMs ?? 20_000;
  const stallMs = deps.stallMs ?? STALL_MS;
  const clients = new Map<string, { baseUrl: string; ca: string | undefined; client: ApiClient }>();
  // Profiles whose saved token the service refused (401): shown as signed out until renewed.
  const signedOut = new Set<string>();
  // The outcome of each profile's last real call (the app's or the watcher's): the sidebar's status dot.
  const reachability = new Map<string, Reachability>();
  let sandboxConnection: SandboxConnection | null = null;
  // Mutations one at a time, so two quick clicks can't interleave read-modify-write of the settings.
  let queue: Promise<unknown> = Promise.resolve();

  function load(): StoredProfiles {
    // Profile by profile: one damaged entry costs that account only, never every account but Sandbox.
    const kept = salvage(StoredProfiles.partial(), settingsStore.get(SETTINGS_KEY)).value ?? {};
    const stored: StoredProfiles = {
      profiles: kept.profiles ?? [],
      activeId: kept.activeId ?? SANDBOX_PROFILE_ID,
    };
    if (!stored.profiles.some((p) => p.id === SANDBOX_PROFILE_ID)) {
      stored.profiles.unshift({
        id: SANDBOX_PROFILE_ID,
        name: 'Sandbox',
        baseUrl: '',
        kind: 'sandbox',
        createdAt: now().toISOString(),
      });
      settingsStore.set(SETTINGS_KEY, stored);
    }
    if (!stored.profiles.some((p) => p.id === stored.activeId)) stored.activeId = SANDBOX_PROFILE_ID;
    return stored;
  }

  function save(stored: StoredProfiles): void {
    settingsStore.set(SETTINGS_KEY, stored);
  }

  /** Keeps the email a profile last signed in with, for the next "sign in again". */
  function rememberEmail(id: string, email: string): void {
    const stored = load();
    const profile = stored.profiles.find((p) => p.id === id);
    if (!profile || profile.email === email) return;
    profile.email = email;
    save(stored);
  }

  async function summary(profile: StoredProfile): Promise<ProfileSummary> {
    const sandboxProfile = profile.kind === 'sandbox';
    // A token store that cannot be read costs the tokens only: the profile shows without one, the app goes on.
    const token = sandboxProfile ? null : await secrets.get(tokenKey(profile.id)).catch(() => null);
    // When the saved token ends, if it says (a JWT's `exp`): the renderer warns a week before.
    const { expiresAt } = readTokenClaims(token);
    return {
      id: profile.id,
      name: profile.name,
      baseUrl: sandboxProfile ? (sandboxConnection?.url ?? '') : profile.baseUrl,
      kind: profile.kind,
      hasToken: sandboxProfile ? true : token !== null,
      signedOut: signedOut.has(profile.id),
      reachability: reachability.get(profile.id) ?? 'unknown',
      createdAt: profile.createdAt,
      ...(expiresAt !== undefined ? { sessionEndsAt: new Date(expiresAt).toISOString() } : {}),
      ...(profile.email ? { email: profile.email } : {}),
    };
  }

  async function state(): Promise<ProfilesState> {
    const stored = load();
    return {
      profiles: await Promise.all(stored.profiles.map(summary)),
      activeId: stored.activeId,
      secrets: secrets.backend(),
      sandbox: sandbox.status?.() ?? { state: 'running' },
    };
  }

  function serial<T>(run: () => Promise<T>): Promise<T> {
    const next = queue.then(run);
    queue = next.catch(() => undefined);
    return next;
  }

  async function changed(): Promise<ProfilesState> {
    const current = await state();
    events.emit('profile.changed', current);
    return current;
  }

  function clientFor(
    profileId: string,
    baseUrl: string,
    getToken: () => Promise<string | null>,
    ca?: string,
  ): ApiClient {
    const cached = clients.get(profileId);
    if (cached && cached.baseUrl === baseUrl && cached.ca === ca) return cached.client;
    const client = expiring(profileId, makeClient({ baseUrl, getToken, timeoutMs, ...(ca ? { ca } : {}) }));
    clients.set(profileId, { baseUrl, ca, client });
    return client;
  }

  /**
   * Live tokens expire (docs/service.md#tokens-expire): a 401 on any call of this profile marks it signed out
   * and becomes SESSION_EXPIRED, naming the profile, so the UI can ask to sign in again and retry. A 401
   * means the service refused the call before doing anything, so retrying it after signing in cannot do it
   * twice.
   */
  function expiring(profileId: string, client: ApiClient): ApiClient {
    const refused = async (error: unknown): Promise<never> => {
      const outcome = outcomeOf(error);
      if (outcome) reached(profileId, outcome);
      if ((error as { status?: unknown })?.status !== 401) throw error;
      const name = load().profiles.find((p) => p.id === profileId)?.name ?? 'this account';
      if (!signedOut.has(profileId)) {
        signedOut.add(profileId);
        await changed();
      }
      throw new ProfileError('SESSION_EXPIRED', `Your session for ${name} expired — sign in again.`);
    };
    return new Proxy(client, {
      get(target, key, receiver) {
        // The decisions' client (writes never resent by it) expires with the profile too.
        if (key === 'once') return () => expiring(profileId, target.once?.() ?? target);
        const value = Reflect.get(target, key, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const result = (value as (...a: unknown[]) => unknown).apply(target, args);
          if (!(result instanceof Promise)) return result;
          const stalled = setTimeout(() => reached(profileId, 'unreachable'), stallMs);
          // A timer must not keep the process (or a test) alive for a call still waiting.
          stalled.unref?.();
          return result.then(
            (answer: unknown) => {
              clearTimeout(stalled);
              reached(profileId, 'reachable');
              return answer;
            },
            (error: unknown) => {
              clearTimeout(stalled);
              return refused(error);
            },
          );
        };
      },
    });
  }

  /** Records a call's outcome; a change is a profile change (the renderer's dot follows it). */
  function reached(profileId: string, outcome: Reachability): void {
    if (reachability.get(profileId) === outcome) return;
    reachability.set(profileId, outcome);
    void changed().catch(() => undefined);
  }

  async function addChecked(
    name: string,
    baseUrl: string,
    token: string,
    email?: string,
  ): Promise<ProfilesState> {
    const trimmedName = name.trim();
    if (!trimmedName) throw new ProfileError('INVALID_PROFILE', 'Give the connection a name.');
    const url = normalizeBaseUrl(baseUrl);
    // A header value can't carry spaces or control characters; say so instead of a transport error.
    if (!/^[\x21-\x7e]+$/.test(token)) {
      throw new ProfileError(
        'INVALID_PROFILE',
        'The token contains spaces or characters a token cannot have.',
      );
    }
    // A wrong token or URL fails here, before anything is saved.
    await makeClient({
      baseUrl: url,
      getToken: async () => token,
      timeoutMs,
      retry: { retries: 1 },
    }).listProjects({
      pageSize: 1,
    });
    const id = newId();
    await secrets.set(tokenKey(id), token);
    const stored = load();
    const account = accountOf(readTokenClaims(token), email);
    stored.profiles.push({
      id,
      name: trimmedName,
      baseUrl: url,
      kind: 'service',
      createdAt: now().toISOString(),
      ...(account ? { account } : {}),
      ...(email ? { email } : {}),
    });
    stored.activeId = id;
    save(stored);
    return changed();
  }

  /**
   * Refuses a sign-in (or pasted token) of another account than the profile's: its queued decisions would go out,
   * and its files be fetched, under someone else. The profile's account is what was recorded, or else what its
   * saved token says; the new one's is its subject and the email signed in with. What cannot be told (opaque
   * tokens, no email) is not refused. Returns the account now known.
   */
  async function sameAccount(
    profile: StoredProfile,
    token: string,
    email: string | undefined,
  ): Promise<StoredProfile['account']> {
    const saved = readTokenClaims(await secrets.get(tokenKey(profile.id)));
    const known = { ...accountOf(saved), ...profile.account };
    const fresh = accountOf(readTokenClaims(token), email) ?? {};
    const differs = (a?: string, b?: string) => a !== undefined && b !== undefined && a !== b;
    if (differs(known.subject, fresh.subject) || differs(known.email, fresh.email)) {
      const who = known.email ? ` (${known.email})` : '';
      const other = fresh.email ? `${fresh.email} ` : 'this account ';
      throw new ProfileError(
        'OTHER_ACCOUNT',
        `${profile.name} belongs to another account${who}. Sign in as that account; to use ${other}add it as a new connection.`,
      );
    }
    return accountOf({ ...fresh, ...known }) ?? undefined;
  }

  /** A profile with a client for it (cached per profile; the sandbox is started if needed). */
  async function connect(profile: StoredProfile): Promise<ActiveProfile> {
    if (profile.kind === 'sandbox') {
      sandboxConnection = await sandbox.ensure();
      const { certificate } = sandboxConnection;
      const client = clientFor(
        profile.id,
        sandboxConnection.url,
        async () => sandboxConnection?.token ?? null,
        certificate,
      );
      return { profile: await summary(profile), client, ...(certificate ? { ca: certificate } : {}) };
    }
    const client = clientFor(profile.id, profile.baseUrl, () => secrets.get(tokenKey(profile.id)));
    return { profile: await summary(profile), client };
  }

  // The renderer shows the Sandbox profile's availability: every change of its process is a profile change.
  sandbox.onStatus?.(() => void changed().catch(() => undefined));

  return {
    state,

    async active() {
      const stored = load();
      return connect(stored.profiles.find((p) => p.id === stored.activeId) ?? stored.profiles[0]!);
    },

    async get(id) {
      const profile = load().profiles.find((p) => p.id === id);
      if (!profile) throw new ProfileError('PROFILE_NOT_FOUND', 'That connection no longer exists.');
      return connect(profile);
    },

    add({ name, baseUrl, token }) {
      return serial(() => addChecked(name, baseUrl, token.trim()));
    },

    signIn({ name, baseUrl, email, password }) {
      return serial(async () => {
        const url = normalizeBaseUrl(baseUrl);
        const anonymous = makeClient({
          baseUrl: url,
          getToken: async () => null,
          timeoutMs,
          retry: { retries: 1 },
        });
        const { token } = await anonymous.signIn(email.trim(), password);
        return addChecked(name, url, token, email.trim());
      });
    },

    renew(input) {
      return serial(async () => {
        const profile = load().profiles.find((p) => p.id === input.id);
        if (!profile || profile.kind !== 'service') {
          throw new ProfileError('PROFILE_NOT_FOUND', 'That connection no longer exists.');
        }
        const token =
          'token' in input
            ? input.token.trim()
            : (
                await makeClient({
                  baseUrl: profile.baseUrl,
                  getToken: async () => null,
                  timeoutMs,
                  retry: { retries: 1 },
                }).signIn(input.email.trim(), input.password)
              ).token;
        const email = 'email' in input ? input.email : undefined;
        const account = await sameAccount(profile, token, email);
        // The new token must work before it replaces the old one.
        await makeClient({
          baseUrl: profile.baseUrl,
          getToken: async () => token,
          timeoutMs,
          retry: { retries: 1 },
        }).listProjects({ pageSize: 1 });
        await secrets.set(tokenKey(profile.id), token);
        if ('email' in input) rememberEmail(profile.id, input.email.trim());
        signedOut.delete(profile.id);
        // What is now known of the account (a profile made before accounts were recorded learns it here).
        const stored = load();
        const saved = stored.profiles.find((p) => p.id === profile.id);
        if (saved && account) {
          saved.account = account;
          save(stored);
        }
        return changed();
      });
    },

    activate(id) {
      return serial(async () => {
        const stored = load();
        if (!stored.profiles.some((p) => p.id === id)) {
          throw new ProfileError('PROFILE_NOT_FOUND', 'That connection no longer exists.');
        }
        if (stored.activeId !== id) {
          stored.activeId = id;
          save(stored);
        }
        return changed();
      });
    },

    remove(id) {
      return serial(async () => {
        const stored = load();
        const profile = stored.profiles.find((p) => p.id === id);
        if (!profile) throw new ProfileError('PROFILE_NOT_FOUND', 'That connection no longer exists.');
        if (profile.kind === 'sandbox') {
          throw new ProfileError(
            'PROFILE_NOT_REMOVABLE',
            'The Sandbox connection is built in and cannot be removed.',
          );
        }
        await secrets.delete(tokenKey(id));
        stored.profiles = stored.profiles.filter((p) => p.id !== id);
        if (stored.activeId === id) stored.activeId = SANDBOX_PROFILE_ID;
        save(stored);
        clients.delete(id);
        reachability.delete(id);
        return changed();
      });
    },

    async restartSandbox() {
      await sandbox.restart?.();
      return state();
    },

    async account(id) {
      const profile = load().profiles.find((p) => p.id === id);
      if (!profile) throw new ProfileError('PROFILE_NOT_FOUND', 'That connection no longer exists.');
      if (profile.kind === 'sandbox') return accountKey(profile, {});
      const token = await secrets.get(tokenKey(id)).catch(() => null);
      return accountKey(profile, readTokenClaims(token));
    },
  };
}

/** The account a token and a sign-in tell of, or undefined when they tell nothing. */
function accountOf(claims: TokenClaims, email?: string): StoredProfile['account'] {
  const address = email?.trim().toLowerCase() || claims.email;
  const account = {
    ...(claims.subject !== undefined ? { subject: claims.subject } : {}),
    ...(address ? { email: address } : {}),
  };
  return Object.keys(account).length > 0 ? account : undefined;
}
