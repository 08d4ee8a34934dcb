import { describe, expect, it } from 'vitest';
import { rowActions } from './row-actions';

describe('rowActions', () => {
  it('marks the row busy while its action runs and not after', async () => {
    const rows = rowActions<'pause' | 'cancel'>();
    let release!: (value: string) => void;
    const running = rows.run('a', 'pause', () => new Promise<string>((resolve) => (release = resolve)));
    expect(rows.busy.value).toEqual({ a: 'pause' });
    release('done');
    expect(await running).toBe('done');
    expect(rows.busy.value).toEqual({});
  });

  it('keeps a failure on its own row, answers null, and clears it when the row acts again', async () => {
    const rows = rowActions<'remove'>();
    const failure = new Error('gone');
    expect(await rows.run('a', 'remove', () => Promise.reject(failure))).toBeNull();
    await rows.run('b', 'remove', () => Promise.resolve(1));
    expect(rows.errors.value).toEqual({ a: failure });
    expect(rows.busy.value).toEqual({});
    await rows.run('a', 'remove', () => Promise.resolve(2));
    expect(rows.errors.value).toEqual({});
  });
});
