/**
 * Tokens encrypted with Electron safeStorage (OS keychain / DPAPI / libsecret), stored as base64
 * in an electron-store file. Both collaborators are typed minimally so tests pass fakes.
 */
import { z } from 'zod';
import type { SecretsBackendInfo } from '../../../shared/ipc';
import { SecretStoreError, type SecretStore } from './secret-store';

/** Electron's `secrets.json`: the encrypted tokens under one key. */
export const ElectronSecretsFileSchema = z
  .object({ encryptedSecrets: z.record(z.string(), z.string()).optional() })
  .catchall(z.unknown());

/** The part of Electron's `safeStorage` used here: the asynchronous API (the synchronous one is deprecated in 45). */
export interface SafeStorageLike {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plainText: string): Promise<Buffer>;
  decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }>;
  /** Linux only; `basic_text` means no keyring: a hard-coded key, i.e. obfuscation rather than encryption. */
  getSelectedStorageBackend?(): string;
  /** Linux only: lets `basic_text` be used at all (without it encryption is "unavailable" there). */
  setUsePlainTextEncryption?(usePlainText: boolean): void;
}

/** The part of an electron-store instance used here. */
export interface KeyValueStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

export interface SafeStorageSecretStoreDeps {
  safeStorage: SafeStorageLike;
  store: KeyValueStore;
}

// One record under one key: electron-store treats dots in keys as paths, and secret keys may contain them.
const RECORD_KEY = 'encryptedSecrets';

/**
 * Opens the Electron secret store; call it once the app is ready (the backend is known only then).
 *
 * The decision on Linux without a keyring (`basic_text`): tokens are saved, obfuscated with Chromium's fixed key,
 * and the banner says so in plain words (the README says the same). Refusing would sign the producer out at every
 * start; saving quietly would pretend they are safe. Where the OS offers no encryption at all, no token is saved.
 */
export async function openSafeStorageSecretStore({
  safeStorage,
  store,
}: SafeStorageSecretStoreDeps): Promise<SecretStore> {
  const plainText = safeStorage.getSelectedStorageBackend?.() === 'basic_text';
  if (plainText) safeStorage.setUsePlainTextEncryption?.(true);
  const available = await safeStorage.isAsyncEncryptionAvailable().catch(() => false);

  function record(): Record<string, string> {
    const value = store.get(RECORD_KEY);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter(([, item]) => typeof item === 'string'));
  }

  function backend(): SecretsBackendInfo {
    if (!available) {
      return {
        kind: 'safeStorage',
        secure: false,
        warning:
          'The operating system offers no encryption for saved secrets, so Takedesk cannot save tokens. Set up a keyring (e.g. GNOME Keyring or KWallet) and restart.',
      };
    }
    if (plainText) {
      return {
        kind: 'basic_text',
        secure: false,
        warning:
          'No keyring was found, so saved tokens are only obfuscated on disk, not encrypted. Anyone who can read your files could use them. Install a keyring (e.g. GNOME Keyring or KWallet) to protect them.',
      };
    }
    return { kind: 'safeStorage', secure: true, warning: null };
  }

  async function encrypt(value: string): Promise<string> {
    return (await safeStorage.encryptStringAsync(value)).toString('base64');
  }

  return {
    async get(key) {
      const all = record();
      if (!Object.hasOwn(all, key)) return null;
      if (!available) {
        throw new SecretStoreError(
          'SECRETS_UNAVAILABLE',
          'Saved tokens cannot be read: OS encryption is not available.',
        );
      }
      let decrypted: { result: string; shouldReEncrypt: boolean };
      try {
        decrypted = await safeStorage.decryptStringAsync(Buffer.from(all[key]!, 'base64'));
      } catch {
        return null;
      }
      // The key was rotated (or a better one is there): save it again under the current key.
      if (decrypted.shouldReEncrypt) {
        const reencrypted = await encrypt(decrypted.result).catch(() => null);
        if (reencrypted) store.set(RECORD_KEY, { ...record(), [key]: reencrypted });
      }
      return decrypted.result;
    },
    async set(key, value) {
      if (!available) {
        throw new SecretStoreError(
          'SECRETS_UNAVAILABLE',
          'Takedesk will not save the token: the operating system offers no encryption for secrets.',
        );
      }
      const encoded = await encrypt(value);
      store.set(RECORD_KEY, { ...record(), [key]: encoded });
    },
    async delete(key) {
      const next = record();
      if (!Object.hasOwn(next, key)) return;
      delete next[key];
      store.set(RECORD_KEY, next);
    },
    backend,
  };
}
