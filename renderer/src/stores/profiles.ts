import { defineStore } from 'pinia';
import { computed, ref, watch } from 'vue';
import type { ProfileSummary, ProfilesState, SandboxStatus } from '../../../shared/ipc';
import { useApi } from '../bridge';
import { loadState } from './support/load-state';

/** How a new account proves itself: main makes a test call with either before saving. */
export type AddProfileInput =
  | { method: 'password'; name: string; baseUrl: string; email: string; password: string }
  | { method: 'token'; name: string; baseUrl: string; token: string };

/** Service connections: the sandbox plus any real accounts; only main ever sees tokens. */
export const useProfilesStore = defineStore('profiles', () => {
  const api = useApi();
  const state = ref<ProfilesState | null>(null);
  const { loading, loadError, run: runLoad } = loadState();
  /** Id of the profile an action is running for ('new' while adding). */
  const busyId = ref<string | null>(null);
  const actionError = ref<{ id: string; error: unknown } | null>(null);

  const profiles = computed<ProfileSummary[]>(() => state.value?.profiles ?? []);
  const active = computed(() => profiles.value.find((p) => p.id === state.value?.activeId) ?? null);
  const isSandbox = computed(() => active.value?.kind === 'sandbox');
  /** The active profile's kind, which gates every sandbox-only choice; undefined until loaded (counts as live). */
  const activeKind = computed(() => active.value?.kind);
  const secrets = computed(() => state.value?.secrets ?? null);
  /** Whether any real account has a saved token: only then is there anything whose storage to warn about. */
  const hasSavedToken = computed(() => profiles.value.some((p) => p.kind === 'service' && p.hasToken));
  /** How a token is kept on this computer, in the words the banner and the sign-in forms both use. */
  const tokenStorage = computed(() => {
    const current = secrets.value;
    if (!current) return null;
    if (current.secure)
      return {
        secure: true,
        text: 'Stored encrypted by the operating system; this window never sees it again.',
      };
    return {
      secure: false,
      text: current.warning ?? 'Your access token is not encrypted by the operating system on this computer.',
    };
  });
  /** The embedded sandbox's process, which serves the Sandbox profile. */
  const sandbox = computed<SandboxStatus | null>(() => state.value?.sandbox ?? null);
  const sandboxUnavailable = computed(() => sandbox.value?.state === 'unavailable');
  /**
   * The active profile's connection, from real calls (main records the outcome of the last request to its
   * service, the watcher's included): signed out, unreachable, reachable, or not known before the first call.
   */
  const connection = computed<'signed-out' | 'unreachable' | 'reachable' | 'unknown'>(() => {
    const profile = active.value;
    if (!profile) return 'unknown';
    if (profile.signedOut) return 'signed-out';
    if (profile.kind === 'sandbox' && sandboxUnavailable.value) return 'unreachable';
    return profile.reachability ?? 'unknown';
  });

  async function load(): Promise<void> {
    await runLoad(async () => {
      state.value = await api.profiles.list();
    });
  }

  async function run(id: string, action: () => Promise<ProfilesState>): Promise<boolean> {
    busyId.value = id;
    actionError.value = null;
    try {
      state.value = await action();
      return true;
    } catch (error) {
      actionError.value = { id, error };
      return false;
    } finally {
      busyId.value = null;
    }
  }

  /** A new token for a profile whose session expired: signed in again, or pasted; main checks it first. */
  function renew(
    id: string,
    input: { method: 'password'; email: string; password: string } | { method: 'token'; token: string },
  ): Promise<boolean> {
    return run(id, () =>
      input.method === 'password'
        ? api.profiles.renew({ id, email: input.email.trim(), password: input.password })
        : api.profiles.renew({ id, token: input.token.trim() }),
    );
  }

  /** Adds an account; main signs in or tests the token first, so a wrong one never lands in the list. */
  function add(input: AddProfileInput): Promise<boolean> {
    const baseUrl = input.baseUrl.trim().replace(/\/+$/, '');
    const name = input.name.trim() || hostOf(baseUrl);
    return run('new', () =>
      input.method === 'password'
        ? api.profiles.signIn({ name, baseUrl, email: input.email.trim(), password: input.password })
        : api.profiles.add({ name, baseUrl, token: input.token.trim() }),
    );
  }

  function activate(id: string): Promise<boolean> {
    return run(id, () => api.profiles.activate({ id }));
  }

  function remove(id: string): Promise<boolean> {
    return run(id, () => api.profiles.remove({ id }));
  }

  /** Decisions of this account the service does not have yet (removing warns with their count); null if unknown. */
  async function pendingDecisions(id: string): Promise<number | null> {
    try {
      return await api.outbox.pending({ profileId: id });
    } catch {
      return null;
    }
  }

  /** Starts the sandbox's process again now (main also restarts it by itself after a crash). */
  function restartSandbox(): Promise<boolean> {
    const id = profiles.value.find((p) => p.kind === 'sandbox')?.id ?? 'sandbox';
    return run(id, () => api.sandbox.restart());
  }

  /** Main pushes `profile.changed` when another window switched profile, and when the sandbox stops or restarts. */
  function listen(): () => void {
    return api.on('profile.changed', (next) => {
      state.value = next;
    });
  }

  return {
    state,
    loading,
    loadError,
    busyId,
    actionError,
    profiles,
    active,
    isSandbox,
    activeKind,
    secrets,
    hasSavedToken,
    tokenStorage,
    sandbox,
    sandboxUnavailable,
    connection,
    load,
    add,
    renew,
    activate,
    remove,
    pendingDecisions,
    restartSandbox,
    listen,
  };
});

function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/**
 * Calls `reload` when the active profile changes to another one (not on the first profile known, nor on a change of
 * its reachability): stores showing one profile's data list it again. Returns the disposer.
 */
export function onProfileSwitch(
  profiles: { readonly state: ProfilesState | null },
  reload: () => void,
): () => void {
  return watch(
    () => profiles.state?.activeId ?? null,
    (next, previous) => {
      if (previous !== null && next !== null && next !== previous) reload();
    },
  );
}
