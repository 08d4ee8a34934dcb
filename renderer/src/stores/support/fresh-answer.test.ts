import { describe, expect, it } from 'vitest';
import { whenFresh } from './fresh-answer';

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('whenFresh', () => {
  it('puts the service’s answer in place while its load is the latest', async () => {
    const applied: string[] = [];
    whenFresh(
      Promise.resolve({ title: 'fresh' }),
      () => true,
      (a) => applied.push(a.title),
    );
    await settle();
    expect(applied).toEqual(['fresh']);
  });

  it('drops an answer still from what was loaded, one a later load took over from, and a failure', async () => {
    const applied: string[] = [];
    whenFresh(
      Promise.resolve({ title: 'loaded', asOf: '2026-11-26T10:42:00Z' }),
      () => true,
      (a) => applied.push(a.title),
    );
    whenFresh(
      Promise.resolve({ title: 'stale load' }),
      () => false,
      (a) => applied.push(a.title),
    );
    whenFresh(
      Promise.reject(new Error('unreachable')),
      () => true,
      () => applied.push('failure'),
    );
    await settle();
    expect(applied).toEqual([]);
  });
});
