import { describe, expect, it } from 'vitest';
import { createMemorySettingsStore } from './profiles';
import { createSettings } from './settings';

describe('settings.set', () => {
  it('a field sent as undefined (Electron IPC keeps it) leaves the current value alone', async () => {
    const seen: unknown[] = [];
    const settings = createSettings({
      store: createMemorySettingsStore(),
      defaults: { libraryDir: '/tmp/takedesk-library' },
      onChange: (next) => seen.push(next.libraryDir),
    });
    const next = await settings.set({ libraryDir: undefined, concurrency: 2 });
    expect(next).toMatchObject({ libraryDir: '/tmp/takedesk-library', concurrency: 2 });
    expect((await settings.get()).libraryDir).toBe('/tmp/takedesk-library');
    expect(seen).toEqual(['/tmp/takedesk-library']);
  });
});

describe('a bad stored preference (issue 24)', () => {
  it('falls back to its default alone, and the next change keeps every other preference', async () => {
    const store = createMemorySettingsStore({
      preferences: { libraryDir: '/music/Takedesk', theme: 'dark', concurrency: 9, notifications: false },
    });
    const settings = createSettings({ store, defaults: { libraryDir: '/tmp/default-library' } });
    expect(settings.current()).toMatchObject({
      libraryDir: '/music/Takedesk',
      theme: 'dark',
      notifications: false,
      concurrency: 3,
    });
    await settings.set({ backgroundFetch: false });
    expect(store.get('preferences')).toMatchObject({
      libraryDir: '/music/Takedesk',
      theme: 'dark',
      notifications: false,
      concurrency: 3,
      backgroundFetch: false,
    });
  });
});
