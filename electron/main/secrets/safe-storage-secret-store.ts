/**
 * Tokens encrypted with Electron safeStorage (OS keychain / DPAPI / libsecret), stored as base64
 * in an electron-store file. Both collaborators are typed minimally so tests pass fakes.
 */
import type { SecretsBackendInfo } from '../../../shared/ipc';
import { SecretStoreError, type SecretStore } from './secret-store';

/** The part of Electron's `safeStorage` used here. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only; `basic_text` means a hard-coded key, i.e. obfuscation rather than encryption. */
  getSelectedStorageBackend?(): string;
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

/** Creates the Electron secret store. */
export function createSafeStorageSecretStore({
  safeStorage,
  store,
}: SafeStorageSecretStoreDeps): SecretStore {
  function record(): Record<string, string> {
    const value = store.get(RECORD_KEY);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    // Own properties only, here and in every lookup: a key like `constructor` is just a key (issue 13, item 8).
    return Object.fromEntries(Object.entries(value).filter(([, item]) => typeof item === 'string'));
  }

  function backend(): SecretsBackendInfo {
    if (!safeStorage.isEncryptionAvailable()) {
      return {
        kind: 'safeStorage',
        secure: false,
        warning:
          'The operating system offers no encryption for saved secrets, so Takedesk cannot save tokens. Set up a keyring (e.g. GNOME Keyring or KWallet) and restart.',
      };
    }
    if (safeStorage.getSelectedStorageBackend?.() === 'basic_text') {
      return {
        kind: 'basic_text',
        secure: false,
        warning:
          'No keyring was found, so saved tokens are only obfuscated on disk, not encrypted. Anyone who can read your files could use them. Install a keyring (e.g. GNOME Keyring or KWallet) to protect them.',
      };
    }
    return { kind: 'safeStorage', secure: true, warning: null };
  }

  return {
    async get(key) {
      const all = record();
      if (!Object.hasOwn(all, key)) return null;
      const encoded = all[key]!;
      if (!safeStorage.isEncryptionAvailable()) {
        throw new SecretStoreError(
          'SECRETS_UNAVAILABLE',
          'Saved tokens cannot be read: OS encryption is not available.',
        );
      }
      try {
        return safeStorage.decryptString(Buffer.from(encoded, 'base64'));
      } catch {
        // A changed keychain or copied profile: the token is unusable, the user must enter it again.
        return null;
      }
    },
    async set(key, value) {
      if (!safeStorage.isEncryptionAvailable()) {
        throw new SecretStoreError(
          'SECRETS_UNAVAILABLE',
          'Takedesk will not save the token: the operating system offers no encryption for secrets.',
        );
      }
      const encoded = safeStorage.encryptString(value).toString('base64');
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
