import { describe, expect, it } from 'vitest';
import { createTaskbarProgress, progressBarArgs, type TaskbarProgress } from './taskbar-progress';

describe('taskbar progress', () => {
  it('reports the byte-weighted fraction, only on change, and none when all downloads ended', () => {
    const shown: TaskbarProgress[] = [];
    const { sink } = createTaskbarProgress((p) => shown.push(p));
    const p = (id: string, bytes: number, total: number | null) => ({
      id,
      bytes,
      total,
      rate: 0,
      etaSeconds: null,
    });
    sink('downloads.progress', [p('a', 10, 100), p('b', 0, 100)]);
    sink('downloads.progress', [p('a', 10, 100)]);
    sink('downloads.progress', [p('b', 90, 100)]);
    sink('library.changed', { count: 1 });
    sink('downloads.changed', { id: 'a', state: 'failed', bytes: 10, total: 100 } as never);
    sink('downloads.changed', { id: 'b', state: 'canceled', bytes: 90, total: 100 } as never);
    expect(shown).toEqual([
      { mode: 'normal', fraction: 0.05 },
      { mode: 'normal', fraction: 0.5 },
      { mode: 'normal', fraction: 0.9 },
      { mode: 'none' },
    ]);
  });

  it('maps to setProgressBar arguments', () => {
    expect(progressBarArgs({ mode: 'normal', fraction: 0.3 })).toEqual([0.3, { mode: 'normal' }]);
    expect(progressBarArgs({ mode: 'indeterminate' })).toEqual([2, { mode: 'indeterminate' }]);
    expect(progressBarArgs({ mode: 'none' })).toEqual([-1, { mode: 'none' }]);
  });
});
