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
