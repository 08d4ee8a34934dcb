/**
 * Browser mode's secret store: a JSON file readable only by this user (0600), replaced atomically
 * (write-file-atomic: temp file + fsync + rename) so a crash never leaves half a file.
 */
import { mkdirSync } from 'node:fs';
import { chmod, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { recoverStateFile, type StateNotices } from '../kernel/state-recovery';
import type { SecretStore } from './secret-store';

/** Browser mode's token file: key -> token. */
export const SecretsFileSchema = z.record(z.string(), z.string());

export interface FileSecretStoreDeps {
  /** The JSON file; created with mode 0600 (its folder with 0700) on the first write. */
  path: string;
  /** Told which tokens were lost when the file was damaged. */
  notices?: StateNotices;
}

/** Creates the file-backed secret store. */
export function createFileSecretStore({ path, notices }: FileSecretStoreDeps): SecretStore {
  // Writes are chained so two concurrent set() calls never lose one another's key.
  let queue: Promise<unknown> = Promise.resolve();
  // A damaged token file costs the tokens it lost, never the app: its copy is kept (state-recovery.ts), the tokens
  // still readable stay, and the rest of the app (library, offline review) goes on.
  const recovered = recoverStateFile(path, SecretsFileSchema, { notices, label: 'The saved sign-ins file' });
  // Written back before anything else runs (synchronously, once, at start): no later start reads the damaged
  // file again, and no start-up removal of temp files can meet this write half done.
  if (recovered.damaged) {
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      writeFileAtomic.sync(path, JSON.stringify(recovered.value ?? {}, null, 2), {
        mode: 0o600,
        fsync: true,
      });
    } catch {
      // The next set() writes the file again; the copy is kept either way.
    }
  }

  async function load(): Promise<Record<string, string>> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // Damaged after the start (its copy was made then, if it was damaged then): no token rather than no app.
      return {};
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    // Own properties only, here and in every lookup: a key like `constructor` is just a key (issue 13, item 8).
    return Object.fromEntries(Object.entries(value).filter(([, item]) => typeof item === 'string'));
  }

  async function save(next: Record<string, string>): Promise<void> {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFileAtomic(path, JSON.stringify(next, null, 2), { mode: 0o600, fsync: true });
    // Guards against a umask or an older file with wider permissions.
    await chmod(path, 0o600);
  }

  function update(change: (secrets: Record<string, string>) => boolean): Promise<void> {
    const run = queue.then(async () => {
      const secrets = await load();
      if (change(secrets)) await save(secrets);
    });
    queue = run.catch(() => undefined);
    return run;
  }

  return {
    async get(key) {
      await queue;
      const secrets = await load();
      return Object.hasOwn(secrets, key) ? secrets[key]! : null;
    },
    set(key, value) {
      return update((secrets) => {
        Object.defineProperty(secrets, key, { value, enumerable: true, writable: true, configurable: true });
        return true;
      });
    },
    delete(key) {
      return update((secrets) => {
        if (!Object.hasOwn(secrets, key)) return false;
        delete secrets[key];
        return true;
      });
    },
    backend: () => ({
      kind: 'file',
      secure: false,
      warning: `Tokens are saved unencrypted in ${path}, a file readable only by your user account.`,
    }),
  };
}
