import { describe, expect, it } from 'vitest';
import { latestAnswer } from './latest-answer';

describe('latestAnswer', () => {
  it('a later request makes the earlier one stale', () => {
    const guard = latestAnswer();
    const first = guard.next();
    expect(first()).toBe(true);
    const second = guard.next();
    expect(first()).toBe(false);
    expect(second()).toBe(true);
  });

  it('drop makes every request under way stale, and current yields to the next request', () => {
    const guard = latestAnswer();
    const asked = guard.next();
    guard.drop();
    expect(asked()).toBe(false);
    const refresh = guard.current();
    expect(refresh()).toBe(true);
    guard.next();
    expect(refresh()).toBe(false);
  });

  it('keeps the answer of the latest of two racing requests, whatever order they arrive in', async () => {
    const guard = latestAnswer();
    let shown = '';
    const ask = async (answer: string, delay: number) => {
      const isLatest = guard.next();
      await new Promise((resolve) => setTimeout(resolve, delay));
      if (isLatest()) shown = answer;
    };
    await Promise.all([ask('old', 20), ask('new', 1)]);
    expect(shown).toBe('new');
  });
});
