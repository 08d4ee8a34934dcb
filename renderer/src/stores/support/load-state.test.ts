import { describe, expect, it } from 'vitest';
import { loadState } from './load-state';

describe('loadState', () => {
  it('is loading while the call runs, then loaded', async () => {
    const state = loadState();
    let release!: () => void;
    const running = state.run(() => new Promise<void>((resolve) => (release = resolve)));
    expect(state.loading.value).toBe(true);
    expect(state.loaded.value).toBe(false);
    release();
    expect(await running).toBe(true);
    expect(state.loading.value).toBe(false);
    expect(state.loaded.value).toBe(true);
  });

  it('keeps a failure instead of throwing, and clears it on the next load', async () => {
    const state = loadState();
    const failure = new Error('offline');
    expect(await state.run(() => Promise.reject(failure))).toBe(false);
    expect(state.loadError.value).toBe(failure);
    expect(state.loaded.value).toBe(false);
    expect(state.loading.value).toBe(false);
    await state.run(() => Promise.resolve());
    expect(state.loadError.value).toBeNull();
    expect(state.loaded.value).toBe(true);
  });
});
