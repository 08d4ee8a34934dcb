import { describe, expect, it } from 'vitest';
import { plural, unitsText } from './plural';

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

describe('unitsText', () => {
  it.each([
    [1, 'words', '1 word'],
    [6, 'words', '6 words'],
    [1, 'seconds', '1 second'],
    [1, 'characters', '1 character'],
    [1500, 'words', '1,500 words'],
  ])('%s %s -> %s', (count, unitType, expected) => {
    expect(unitsText(count, unitType)).toBe(expected);
  });
});
