import { describe, expect, it } from 'vitest';
import {
  revisionWindowText,
  formatBytes,
  formatClock,
  formatDuration,
  formatEta,
  formatMoney,
  languageName,
  formatRate,
  formatTimestamp,
  parseTimestamps,
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

describe('parseTimestamps', () => {
  it.each([
    ['Louder at [0:02.1] please', [2.1]],
    ['[0:00.0] and [1:05.5], then [10:00]', [0, 65.5, 600]],
    ['hours [1:02:03.4]', [3723.4]],
    ['no markers: 0:02.1, [0:2.1], [0:61.0], [a:bc]', []],
    ['', []],
  ])('%j -> %j', (text, seconds) => {
    expect(parseTimestamps(text).map((t) => t.seconds)).toEqual(seconds);
  });
  it('reads back what formatTimestamp writes, with its place in the note', () => {
    for (const s of [0, 2.1, 12.4, 59.9, 605.3]) {
      const note = `x ${formatTimestamp(s)} y`;
      expect(parseTimestamps(note)).toEqual([{ seconds: s, text: formatTimestamp(s), index: 2 }]);
    }
  });
});

describe('revisionWindowText', () => {
  const now = Date.parse('2026-12-01T12:00:00Z');

  it('gives a completed project 90 days from its order date, whatever the date’s zone or spelling', () => {
    for (const created of ['2026-11-26T10:00:00', '2026-11-26T12:00:00+02:00', '2026-11-26 10:00:00'])
      expect(revisionWindowText({ status: 'completed', created }, now)).toBe(
        'Revisions possible until 24 Feb 2027',
      );
  });

  it('says nothing for projects in work, once the window closed, or without a date', () => {
    expect(revisionWindowText({ status: 'paid', created: '2026-11-26T10:00:00' }, now)).toBeNull();
    expect(revisionWindowText({ status: 'completed', created: '2026-08-01T10:00:00' }, now)).toBeNull();
    expect(revisionWindowText({ status: 'completed' }, now)).toBeNull();
    expect(revisionWindowText(null, now)).toBeNull();
  });
});

describe('prices and languages in words (issue 26 item 6)', () => {
  it('names the currency of a price', () => {
    expect(formatMoney(27.1, 'USD')).toBe('$27.10 USD');
    expect(formatMoney(3, 'eur')).toBe('€3.00 EUR');
    expect(formatMoney(5, 'XYZ').replace(/\s/gu, ' ')).toBe('XYZ 5.00');
    expect(formatMoney(null, 'USD')).toBe('—');
  });

  it('shows a language code as its name and region', () => {
    expect(languageName('eng-za')).toBe('English (South Africa)');
    expect(languageName('eng-us')).toBe('English (United States)');
    expect(languageName('spa-mx')).toBe('Spanish (Mexico)');
    expect(languageName('bos-ba')).toBe('Bosnian (Bosnia & Herzegovina)');
    expect(languageName('ara')).toBe('Arabic');
    expect(languageName('cmn-zh')).toBe('Chinese');
    expect(languageName('qqq-zz')).toBe('qqq-zz');
    expect(languageName('')).toBe('—');
  });
});
