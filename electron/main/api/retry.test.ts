import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter, retryPolicy } from './retry';

describe('backoffDelay (full jitter)', () => {
  const policy = { baseDelayMs: 100, maxDelayMs: 1000 };
  it.each([
    // attempt, random, expected: window = min(max, base * 2^attempt), delay = floor(random * window)
    [0, 0.999, 99],
    [0, 0, 0],
    [1, 0.5, 100],
    [2, 0.5, 200],
    [3, 0.999, 799],
    [4, 0.999, 999], // capped at maxDelayMs
    [10, 0.5, 500],
  ])('attempt %i with random %f waits %i ms', (attempt, random, expected) => {
    expect(backoffDelay({ ...policy, random: () => random }, attempt)).toBe(expected);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it.each([
    [undefined, null],
    ['', null],
    ['soon', null],
    ['0', 0],
    ['3', 3000],
    ['120', 30_000], // capped
    ['Thu, 01 Jan 2026 00:00:05 GMT', 5000],
    ['Wed, 31 Dec 2025 23:59:00 GMT', 0], // in the past: go now
    ['Fri, 02 Jan 2026 00:00:00 GMT', 30_000],
  ])('%j -> %j', (header, expected) => {
    expect(parseRetryAfter(header, now, 30_000)).toBe(expected);
  });
});

describe('retryPolicy', () => {
  it('fills defaults and keeps injected parts', () => {
    const random = () => 0.25;
    const policy = retryPolicy({ retries: 5, random });
    expect(policy.retries).toBe(5);
    expect(policy.random).toBe(random);
    expect(policy.maxRetryAfterMs).toBe(30_000);
    expect(retryPolicy().retries).toBe(3);
  });
});
