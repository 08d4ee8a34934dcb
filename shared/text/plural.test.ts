import { describe, expect, it } from 'vitest';
import { plural } from './plural';

describe('plural', () => {
  it.each([
    [0, 'project', undefined, '0 projects'],
    [1, 'project', undefined, '1 project'],
    [2, 'project', undefined, '2 projects'],
    [10_000, 'project', undefined, '10,000 projects'],
    [1, 'deliverable', undefined, '1 deliverable'],
    [3, 'take', undefined, '3 takes'],
    [1, 'match', 'matches', '1 match'],
    [2, 'match', 'matches', '2 matches'],
  ])('%s %s -> %s', (count, singular, pluralForm, expected) => {
    expect(plural(count, singular, pluralForm)).toBe(expected);
  });
});
