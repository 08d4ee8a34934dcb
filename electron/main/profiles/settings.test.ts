import { describe, expect, it } from 'vitest';
import { createMemorySettingsStore } from '.';
import { join } from 'node:path';
import { createSettings, defaultLibraryDir } from './settings';

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

describe('the default library folder (issue 26 item 8)', () => {
  it('follows TAKEDESK_DATA_DIR when it is set, so separate instances never share a library', () => {
    expect(defaultLibraryDir('/home/ana', '/tmp/instance-a')).toBe(
      join('/tmp/instance-a', 'Takedesk Library'),
    );
    expect(defaultLibraryDir('/home/ana', '/tmp/instance-b')).toBe(
      join('/tmp/instance-b', 'Takedesk Library'),
    );
    expect(defaultLibraryDir('/home/ana', undefined)).toBe(join('/home/ana', 'Takedesk Library'));
  });

  it('is never saved by an unrelated change: a library never chosen keeps following the data folder', async () => {
    const store = createMemorySettingsStore();
    const first = createSettings({ store, defaults: { libraryDir: '/tmp/instance-a/Takedesk Library' } });
    await first.set({ theme: 'dark' });
    const moved = createSettings({ store, defaults: { libraryDir: '/tmp/instance-b/Takedesk Library' } });
    expect(moved.current()).toMatchObject({ theme: 'dark', libraryDir: '/tmp/instance-b/Takedesk Library' });
  });

  it('a folder the producer chose stays chosen through later changes', async () => {
    const store = createMemorySettingsStore();
    const settings = createSettings({ store, defaults: { libraryDir: '/tmp/default-library' } });
    await settings.set({ libraryDir: '/music/Clients' });
    await settings.set({ concurrency: 2 });
    const again = createSettings({ store, defaults: { libraryDir: '/tmp/other-default' } });
    expect(again.current().libraryDir).toBe('/music/Clients');
  });
});
