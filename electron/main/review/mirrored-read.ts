/**
 * A read through the read mirror (mirror.ts), as the read handlers make it: the service's answer is kept under the
 * account of the profile that asked; what was loaded answers at once and the service's answer follows (or, for a
 * `fresh` read, when the service is away, slow or unreachable).
 */
import type { MirroredRead, RefreshedRead } from '../../../shared/ipc';
import type { ApiClient } from '../api';
import { localError } from '../kernel/local-error';
import type { ProfilesPort } from '../profiles';
import type { Mirror, Mirrored } from './mirror';

export interface MirroredReadDeps {
  profiles: Pick<ProfilesPort, 'state' | 'active'>;
  /**
   * The read mirror (review/mirror.ts): every read answer is kept under the profile's account, and answers for
   * the service when it cannot be reached. Without it, reads go to the service only.
   */
  mirror?: { store: Mirror; account(profileId: string): Promise<string> };
  /** Overrides MIRROR_AFTER_MS (tests). */
  mirrorAfterMs?: number;
  /** The service's answer to a read the mirror answered first (`read.refreshed` on the bus). */
  onRefreshed?: (read: RefreshedRead) => void;
  log?: (message: string, error?: unknown) => void;
}

/**
 * The service did not answer (as opposed to answering no): no connection, a timeout, the sandbox down, a gateway's
 * 502/503/504. Only then does a read answer from the mirror.
 */
export function isUnreachable(error: unknown): boolean {
  const e = error as { type?: unknown; status?: unknown } | null;
  if (e?.type === 'NETWORK_UNREACHABLE' || e?.type === 'TIMEOUT' || e?.type === 'SANDBOX_UNAVAILABLE')
    return true;
  if (typeof e?.type === 'string' && /^HTTP_50[234]$/.test(e.type)) return true;
  return typeof e?.status === 'number' && e.status >= 502 && e.status <= 504;
}

/**
 * How long a `fresh` read waits for the service before what was loaded answers (when something was): a service that
 * hangs costs the client's timeout and retries, far longer than a screen may stay empty.
 */
export const MIRROR_AFTER_MS = 3_000;

/** The read handlers' way to the service and the mirror, for the active profile. */
export function createMirroredRead(deps: MirroredReadDeps) {
  /** Reads on their way to the service, by profile, channel and input. */
  const inflight = new Map<string, Promise<unknown>>();
  /**
   * A read through the mirror (stale-while-revalidate): the service is always asked, and its answer is kept (under
   * the account of the profile that asked). What was loaded answers at once, marked `asOf`, and the service's answer
   * follows as `onRefreshed` when it lands; what was never loaded waits for the service. A `fresh` read waits for the
   * service too, unless the service is known to be away (its last call found no connection) or has not answered
   * within `mirrorAfterMs` — then what was loaded answers, and the service's answer still follows. When the service
   * cannot be reached, what was loaded answers, and what never was says so in words. Keeping an answer never fails
   * the read.
   */
  const readThrough = async <T, R>(
    read: { channel: MirroredRead; input: object; fresh: boolean | undefined; what: string },
    ask: (active: { profile: { id: string }; client: ApiClient }) => Promise<T>,
    keep: (mirror: Mirror, account: string, answer: T) => void,
    stored: (mirror: Mirror, account: string) => Mirrored<R> | null,
    answer: (value: T) => R,
  ): Promise<R | Mirrored<R>> => {
    const mirror = deps.mirror;
    const state = await deps.profiles.state();
    // The same read already on its way to the service (a screen that was answered from what was loaded asks again
    // for the service's own answer): it waits for that request rather than sending another.
    const key = `${state.activeId}\n${read.channel}\n${JSON.stringify(read.input)}`;
    const joined = inflight.get(key) as Promise<T> | undefined;
    const asking =
      joined ??
      (async () => {
        const active = await deps.profiles.active();
        const value = await ask(active);
        if (mirror) {
          try {
            keep(mirror.store, await mirror.account(active.profile.id), value);
          } catch (error) {
            deps.log?.('the read mirror could not keep an answer', error);
          }
        }
        return value;
      })();
    if (!joined) {
      inflight.set(key, asking);
      const settled = () => void (inflight.get(key) === asking && inflight.delete(key));
      asking.then(settled, settled);
    }
    if (!mirror) return answer(await asking);
    const fromMirror = async () => stored(mirror.store, await mirror.account(state.activeId));
    /** What was loaded answered: the service's answer follows, for the profile that asked. */
    const answeredEarly = (found: Mirrored<R>) => {
      asking
        .then(
          (value) =>
            deps.onRefreshed?.({
              profileId: state.activeId,
              channel: read.channel,
              input: read.input,
              value: answer(value),
            } as RefreshedRead),
          (error: unknown) => {
            // What was loaded stays on screen, as of when it was read; the next read asks again.
            if (!isUnreachable(error)) deps.log?.(`${read.channel} after its loaded answer`, error);
          },
        )
        .catch((error: unknown) =>
          deps.log?.(`${read.channel}: its service answer was not passed on`, error),
        );
      return found;
    };
    const away = state.profiles.find((p) => p.id === state.activeId)?.reachability === 'unreachable';
    const early = !read.fresh || away ? await fromMirror().catch(() => null) : null;
    if (early) return answeredEarly(early);
    let timer: NodeJS.Timeout | undefined;
    const slow = new Promise<'slow'>((resolve) => {
      timer = setTimeout(() => resolve('slow'), deps.mirrorAfterMs ?? MIRROR_AFTER_MS);
    });
    try {
      const first = await Promise.race([asking, slow]);
      if (first !== 'slow') return answer(first);
      const found = await fromMirror().catch(() => null);
      if (found) return answeredEarly(found);
      return answer(await asking);
    } catch (error) {
      if (!isUnreachable(error)) throw error;
      const found = await fromMirror();
      if (found) return found;
      throw localError(
        'NOT_LOADED_OFFLINE',
        `${read.what} not loaded on this computer yet, and the service cannot be reached: ${(error as Error).message}`,
      );
    } finally {
      clearTimeout(timer);
    }
  };
  return readThrough;
}
