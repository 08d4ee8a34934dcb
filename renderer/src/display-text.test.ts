import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatClock,
  formatDuration,
  formatEta,
  formatRate,
  formatTimestamp,
} from './display-text';

describe('formatClock / formatTimestamp', () => {
  it.each([
    [0, '0:00.0'],
    [12.4, '0:12.4'],
    [12.45, '0:12.4'],
    [59.99, '0:59.9'],
    [60, '1:00.0'],
    [605.3, '10:05.3'],
    [-3, '0:00.0'],
    [Number.NaN, '0:00.0'],
  ])('%s s -> %s', (s, text) => {
    expect(formatClock(s)).toBe(text);
  });
  it('wraps the clock in brackets for instructions', () => {
    expect(formatTimestamp(12.4)).toBe('[0:12.4]');
  });
});

describe('list formats', () => {
  it.each([
    [65, '1:05'],
    [3725, '1:02:05'],
    [null, '—'],
  ])('duration %s -> %s', (s, text) => expect(formatDuration(s)).toBe(text));
  it.each([
    [0, '0 B'],
    [999, '999 B'],
    [1500, '1.5 KB'],
    [12_300_000, '12 MB'],
  ])('bytes %s -> %s', (b, text) => expect(formatBytes(b)).toBe(text));
  it('rate and ETA', () => {
    expect(formatRate(2_400_000)).toBe('2.4 MB/s');
    expect(formatRate(0)).toBe('—');
    expect(formatEta(0.2)).toBe('1 s left');
    expect(formatEta(125)).toBe('2 min left');
    expect(formatEta(null)).toBe('');
  });
});
