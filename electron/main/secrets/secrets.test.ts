import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createFileSecretStore,
  createMemorySecretStore,
  openSafeStorageSecretStore,
  SecretStoreError,
  type KeyValueStore,
  type SafeStorageLike,
} from '.';
import { createStateNotices } from '../kernel/state-recovery';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'takedesk-secrets-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

/** A reversible stand-in for OS encryption, so a plaintext token in the store would be visible. */
function fakeSafeStorage(
  options: { available?: boolean; backend?: string; rotated?: boolean } = {},
): SafeStorageLike & { calls: number; plainText: boolean[] } {
  const fake = {
    calls: 0,
    plainText: [] as boolean[],
    // As on Linux: basic_text is "unavailable" until plain-text encryption is allowed.
    isAsyncEncryptionAvailable: async () =>
      (options.available ?? true) && (options.backend !== 'basic_text' || fake.plainText.at(-1) === true),
    async encryptStringAsync(plain: string) {
      fake.calls++;
      return Buffer.from(`enc:${[...plain].reverse().join('')}`);
    },
    async decryptStringAsync(buffer: Buffer) {
      const text = buffer.toString();
      if (!text.startsWith('enc:')) throw new Error('bad ciphertext');
      return { result: [...text.slice(4)].reverse().join(''), shouldReEncrypt: options.rotated ?? false };
    },
    setUsePlainTextEncryption: (on: boolean) => void fake.plainText.push(on),
    ...(options.backend ? { getSelectedStorageBackend: () => options.backend! } : {}),
  };
  return fake;
}

/** electron-store-like: dot keys would be paths there, so the fake records every key it is given. */
function fakeStore(): KeyValueStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: (key) => structuredClone(data.get(key)),
    set: (key, value) => void data.set(key, structuredClone(value)),
    delete: (key) => void data.delete(key),
  };
}

describe('memory secret store', () => {
  it('sets, gets, deletes, and reports an insecure memory backend', async () => {
    const store = createMemorySecretStore();
    expect(await store.get('a')).toBeNull();
    await store.set('a', 'tok-1');
    expect(await store.get('a')).toBe('tok-1');
    await store.delete('a');
    expect(await store.get('a')).toBeNull();
    expect(store.backend()).toMatchObject({ kind: 'memory', secure: false });
  });
});

describe('file secret store', () => {
  it('creates the file with mode 0600 and its folder with 0700', async () => {
    const dir = await tempDir();
    const path = join(dir, 'nested', 'secrets.json');
    const store = createFileSecretStore({ path });
    await store.set('profile-token:x', 'secret-token-value');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'nested'))).mode & 0o777).toBe(0o700);
    expect(await store.get('profile-token:x')).toBe('secret-token-value');
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ 'profile-token:x': 'secret-token-value' });
  });

  it('tightens an existing file that was readable by others', async () => {
    const dir = await tempDir();
    const path = join(dir, 'secrets.json');
    await writeFile(path, '{"old":"value"}', { mode: 0o644 });
    const store = createFileSecretStore({ path });
    await store.set('new', 'v');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await store.get('old')).toBe('value');
  });

  it('keeps every key under concurrent writes and survives a new instance', async () => {
    const path = join(await tempDir(), 'secrets.json');
    const store = createFileSecretStore({ path });
    await Promise.all(Array.from({ length: 25 }, (_, i) => store.set(`k${i}`, `v${i}`)));
    await store.delete('k3');
    const again = createFileSecretStore({ path });
    for (let i = 0; i < 25; i++) expect(await again.get(`k${i}`)).toBe(i === 3 ? null : `v${i}`);
  });

  it('says the token is in a file readable only by this user', () => {
    const info = createFileSecretStore({ path: '/tmp/x/secrets.json' }).backend();
    expect(info.kind).toBe('file');
    expect(info.secure).toBe(false);
    expect(info.warning).toMatch(/readable only by your user/);
  });

  it('a damaged file costs only the tokens it lost: the rest stay, a copy is kept, the user is told (issue 24)', async () => {
    const dir = await tempDir();
    const path = join(dir, 'secrets.json');
    const damaged = '{"profile-token:a": "tok-a", "profile-token:b": "tok-';
    await writeFile(path, damaged, { mode: 0o600 });
    const notices = createStateNotices();
    const store = createFileSecretStore({ path, notices });
    expect(await store.get('profile-token:a')).toBe('tok-a');
    expect(await store.get('profile-token:b')).toBeNull();
    const copies = (await readdir(dir)).filter((name) => name.startsWith('secrets.damaged-'));
    expect(copies).toHaveLength(1);
    expect(await readFile(join(dir, copies[0]!), 'utf8')).toBe(damaged);
    expect((await stat(join(dir, copies[0]!))).mode & 0o777).toBe(0o600);
    expect(notices.take()).toMatchObject([{ file: 'secrets.json', label: 'The saved sign-ins file' }]);
    // What was kept is written back, so the next start reads a sound file and says nothing more.
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ 'profile-token:a': 'tok-a' });
    createFileSecretStore({ path, notices });
    expect(notices.take()).toEqual([]);
  });
});

describe('safeStorage secret store', () => {
  it('stores only base64 ciphertext and reads it back', async () => {
    const safeStorage = fakeSafeStorage({ backend: 'gnome_libsecret' });
    const store = fakeStore();
    const secrets = await openSafeStorageSecretStore({ safeStorage, store });
    await secrets.set('profile-token:a.b', 'my-token');
    expect(safeStorage.calls).toBe(1);
    expect(JSON.stringify([...store.data])).not.toContain('my-token');
    const record = store.data.get('encryptedSecrets') as Record<string, string>;
    expect(Buffer.from(record['profile-token:a.b']!, 'base64').toString()).toBe('enc:nekot-ym');
    expect(await secrets.get('profile-token:a.b')).toBe('my-token');
    expect(secrets.backend()).toEqual({ kind: 'safeStorage', secure: true, warning: null });
    await secrets.delete('profile-token:a.b');
    expect(await secrets.get('profile-token:a.b')).toBeNull();
  });

  it('on Linux without a keyring (basic_text) saves tokens obfuscated, and warns so', async () => {
    const secrets = await openSafeStorageSecretStore({
      safeStorage: fakeSafeStorage({ backend: 'basic_text' }),
      store: fakeStore(),
    });
    const info = secrets.backend();
    expect(info.kind).toBe('basic_text');
    expect(info.secure).toBe(false);
    expect(info.warning).toMatch(/not encrypted/);
    // Without setUsePlainTextEncryption(true) this set would throw SECRETS_UNAVAILABLE: the branch never ran.
    await secrets.set('k', 'token');
    expect(await secrets.get('k')).toBe('token');
  });

  it('a token whose key was rotated is saved again under the current key', async () => {
    const store = fakeStore();
    const safeStorage = fakeSafeStorage({ rotated: true });
    const secrets = await openSafeStorageSecretStore({ safeStorage, store });
    await secrets.set('k', 'token');
    expect(safeStorage.calls).toBe(1);
    expect(await secrets.get('k')).toBe('token');
    expect(safeStorage.calls).toBe(2);
    expect(await secrets.get('k')).toBe('token');
  });

  it('refuses to store when encryption is unavailable, with a clear error', async () => {
    const store = fakeStore();
    const secrets = await openSafeStorageSecretStore({
      safeStorage: fakeSafeStorage({ available: false }),
      store,
    });
    const error = await secrets.set('k', 'token').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretStoreError);
    expect(error).toMatchObject({ type: 'SECRETS_UNAVAILABLE', status: 0 });
    expect((error as Error).message).toMatch(/will not save the token/);
    expect(store.data.size).toBe(0);
    expect(secrets.backend()).toMatchObject({ secure: false });
  });

  it('treats an undecryptable entry as no token', async () => {
    const store = fakeStore();
    store.set('encryptedSecrets', { k: Buffer.from('garbage').toString('base64') });
    const secrets = await openSafeStorageSecretStore({ safeStorage: fakeSafeStorage(), store });
    expect(await secrets.get('k')).toBeNull();
  });
});

describe('prototype keys are plain keys in every store (issue 13, item 8)', () => {
  const KEYS = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];
  const stores = async () => [
    ['memory', createMemorySecretStore()] as const,
    ['file', createFileSecretStore({ path: join(await tempDir(), 'secrets.json') })] as const,
    [
      'safeStorage',
      await openSafeStorageSecretStore({ safeStorage: fakeSafeStorage(), store: fakeStore() }),
    ] as const,
  ];

  it.each(KEYS)('%s: absent reads null and deletes nothing; set and get round-trip', async (key) => {
    for (const [name, store] of await stores()) {
      await store.set('other', 'kept');
      await expect(store.get(key), name).resolves.toBeNull();
      await store.delete(key);
      await store.set(key, 'v1');
      await expect(store.get(key), name).resolves.toBe('v1');
      await expect(store.get('other'), name).resolves.toBe('kept');
      await store.delete(key);
      await expect(store.get(key), name).resolves.toBeNull();
    }
  });
});
