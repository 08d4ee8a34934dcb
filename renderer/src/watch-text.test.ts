import { describe, expect, it } from 'vitest';
import { agoText, checkedText, cycleText, inText } from './watch-text';

const NOW = Date.parse('2026-11-26T10:00:00Z');

describe('watch text', () => {
  it.each([
    [10_000, 'just now'],
    [60_000, '1 min ago'],
    [2 * 60_000 + 10_000, '2 min ago'],
    [125 * 60_000, 'about 2 h ago'],
  ])('%i ms ago -> %s', (ms, text) => expect(agoText(ms)).toBe(text));

  it.each([
    [3_000, 'in a few seconds'],
    [50_000, 'in about 1 min'],
    [8 * 60_000, 'in about 8 min'],
    [3 * 60 * 60_000, 'in about 3 h'],
  ])('next in %i ms -> %s', (ms, text) => expect(inText(ms)).toBe(text));

  it('says when a project was checked and when it will be next', () => {
    expect(checkedText('2026-11-26T09:58:00Z', 70_000, NOW)).toBe('Checked 2 min ago · next in about 1 min');
    expect(checkedText(null, 5_000, NOW)).toBe('Not checked yet · next in a few seconds');
    expect(checkedText('2026-11-26T09:58:00Z', null, NOW)).toBe('Checked 2 min ago');
  });

  it('says how long a round takes, longer on a large account', () => {
    expect(cycleText(12, 8 * 60_000)).toBe('12 projects in work, each checked about every 8 min');
    expect(cycleText(300, 10 * 60_000)).toBe('300 projects in work, each checked about every 10 min');
    expect(cycleText(2_400, 80 * 60_000)).toBe('2,400 projects in work, each checked about every 1 h 20 min');
    expect(cycleText(0, null)).toBe('No project in work to check');
  });
});
