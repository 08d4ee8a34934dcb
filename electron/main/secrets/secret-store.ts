/** Where tokens live at rest. Only main holds a SecretStore; nothing it returns leaves main. */
import type { SecretsBackendInfo } from '../../../shared/ipc';

/** A small async key -> secret map with a description of how safe it is. */
export interface SecretStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** How secrets are kept; `secure: false` makes the UI show `warning`. */
  backend(): SecretsBackendInfo;
}

/** Why a secret could not be kept; `type` reaches the UI through the IPC envelope. */
export class SecretStoreError extends Error {
  override readonly name = 'SecretStoreError';
  readonly type: 'SECRETS_UNAVAILABLE' | 'SECRETS_UNREADABLE';
  readonly status = 0;

  constructor(type: SecretStoreError['type'], message: string) {
    super(message);
    this.type = type;
  }
}
