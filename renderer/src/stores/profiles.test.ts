// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { createFakeApi, withApi } from './fake-api.test-util';
import { useProfilesStore } from './profiles';

describe('profiles store', () => {
  const sandbox = {
    id: 'sandbox',
    name: 'Sandbox',
    baseUrl: 'http://127.0.0.1:1',
    kind: 'sandbox',
    hasToken: true,
    createdAt: '',
  };
  const secrets = { kind: 'file', secure: false, warning: 'Stored in a file' };

  it('signs in with a trimmed base URL, or adds a token, and keeps a refused account out', async () => {
    const { api, calls } = createFakeApi({
      'profiles.list': () => ({ profiles: [sandbox], activeId: 'sandbox', secrets }),
      'profiles.signIn': () => {
        throw { type: 'USER_NOT_FOUND', status: 401, message: 'bad' };
      },
      'profiles.add': (input) => ({
        profiles: [sandbox, { ...sandbox, id: 'p2', kind: 'service', ...(input as object) }],
        activeId: 'p2',
        secrets,
      }),
    });
    const store = withApi(api, () => useProfilesStore());
    await store.load();
    expect(store.isSandbox).toBe(true);
    const refused = await store.add({
      method: 'password',
      name: '',
      baseUrl: 'https://api.example.com/ ',
      email: 'a@b.c',
      password: 'x',
    });
    expect(refused).toBe(false);
    expect(store.actionError).toMatchObject({ id: 'new', error: { type: 'USER_NOT_FOUND' } });
    expect(calls.at(-1)?.input).toEqual({
      name: 'api.example.com',
      baseUrl: 'https://api.example.com',
      email: 'a@b.c',
      password: 'x',
    });
    expect(
      await store.add({ method: 'token', name: 'Studio', baseUrl: 'https://api.example.com', token: ' t ' }),
    ).toBe(true);
    expect(calls.at(-1)?.input).toEqual({ name: 'Studio', baseUrl: 'https://api.example.com', token: 't' });
    expect(store.isSandbox).toBe(false);
    expect(store.secrets?.secure).toBe(false);
  });
});
