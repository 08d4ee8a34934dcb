import type { SecretStore } from './secret-store';

/** Secrets in a Map: for tests, and gone when the process ends. */
export function createMemorySecretStore(): SecretStore {
  const secrets = new Map<string, string>();
  return {
    get: async (key) => secrets.get(key) ?? null,
    set: async (key, value) => {
      secrets.set(key, value);
    },
    delete: async (key) => {
      secrets.delete(key);
    },
    backend: () => ({
      kind: 'memory',
      secure: false,
      warning: 'Tokens are kept in memory only and are forgotten when Takedesk quits.',
    }),
  };
}
