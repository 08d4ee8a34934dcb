import { describe, expect, it } from 'vitest';
import type { ProjectListItem } from '../../../shared/api';
import { lastActivityTime, matchesSearch, orderProjects } from './project-list-order';

const row = (id: string, extra: Partial<ProjectListItem> = {}): ProjectListItem => ({
  id,
  title: `Project ${id}`,
  ...extra,
});

describe('projects list search (issue 26 item 9)', () => {
  const spring = row('a', {
    title: 'Spring promo',
    services: [{ subCategory: 'voice_over', script: [{ '1': 'Fresh lemonade at the harbour' }] } as never],
  });
  const plain = row('b', {
    title: 'Winter sale',
    services: [{ script: 'Cosy scarves for everyone' } as never],
  });
  const noted = row('c', { title: 'Radio tag', remarks: 'Client wants a warm baritone' });
  const briefed = row('d', {
    title: 'Podcast intro',
    services: [{ remarks: 'Keep it under ten seconds' } as never],
  });

  it('finds words in titles, script text (one string or parts) and notes, any case, any order', () => {
    const rows = [spring, plain, noted, briefed];
    expect(orderProjects(rows, 'spring', null)).toEqual([spring]);
    expect(orderProjects(rows, 'LEMONADE', null)).toEqual([spring]);
    expect(orderProjects(rows, 'scarves', null)).toEqual([plain]);
    expect(orderProjects(rows, 'baritone warm', null)).toEqual([noted]);
    expect(orderProjects(rows, 'ten seconds', null)).toEqual([briefed]);
    expect(orderProjects(rows, 'lemonade scarves', null)).toEqual([]);
    expect(matchesSearch(noted, '   ')).toBe(true);
  });

  it('with no search and no sort hands back the very rows (nothing copied for 10,000 of them)', () => {
    const rows = [spring, plain];
    expect(orderProjects(rows, '', null)).toBe(rows);
  });
});

describe('projects list sort (issue 26 item 9)', () => {
  const rows = [
    row('1', { title: 'beta', status: 'paid', price: 12.5, created: '2026-03-01T10:00:00Z' }),
    row('2', { title: 'Alpha 10', status: 'completed', price: 40, created: '2026-03-01T12:00:00+02:00' }),
    row('3', { title: 'Alpha 9', created: 'not a date' }),
    row('4', { title: 'gamma', status: 'canceled', price: 3, created: '2026-02-01 09:00:00' }),
  ];
  const ids = (list: readonly ProjectListItem[]) => list.map((r) => r.id);

  it('sorts by title, naturally and regardless of case, both ways', () => {
    expect(ids(orderProjects(rows, '', { key: 'title', direction: 'asc' }))).toEqual(['3', '2', '1', '4']);
    expect(ids(orderProjects(rows, '', { key: 'title', direction: 'desc' }))).toEqual(['4', '1', '2', '3']);
  });

  it('sorts by price and status with missing values last either way', () => {
    expect(ids(orderProjects(rows, '', { key: 'price', direction: 'desc' }))).toEqual(['2', '1', '4', '3']);
    expect(ids(orderProjects(rows, '', { key: 'price', direction: 'asc' }))).toEqual(['4', '1', '2', '3']);
    expect(ids(orderProjects(rows, '', { key: 'status', direction: 'asc' }))).toEqual(['4', '2', '1', '3']);
  });

  it('sorts by the instant a project was created, whatever zone the service wrote', () => {
    // 12:00+02:00 is 10:00Z, the same instant as project 1: the tie keeps the service's order.
    expect(ids(orderProjects(rows, '', { key: 'created', direction: 'desc' }))).toEqual(['1', '2', '4', '3']);
    expect(ids(orderProjects(rows, '', { key: 'created', direction: 'asc' }))).toEqual(['4', '1', '2', '3']);
  });

  it('searches then sorts', () => {
    expect(ids(orderProjects(rows, 'alpha', { key: 'title', direction: 'desc' }))).toEqual(['2', '3']);
  });
});

describe('projects list "Last activity" sort: the latest the app has seen, else the creation date', () => {
  const rows = [
    row('old-busy', { created: '2026-01-01T10:00:00Z' }),
    row('new-quiet', { created: '2026-03-01T10:00:00Z' }),
    row('mid', { created: '2026-02-01T10:00:00Z' }),
    row('undated'),
    row('undated-seen'),
  ];
  const seen: Record<string, string> = {
    // Delivered to long after it was ordered: it is the latest activity of all.
    'old-busy': '2026-04-01T12:00:00+02:00',
    // Seen before it was created (a clock off): the creation date is the later of the two.
    mid: '2026-01-15T10:00:00Z',
    'undated-seen': '2026-02-15T10:00:00Z',
  };
  const activityOf = (project: ProjectListItem) => seen[project.id];
  const ids = (list: readonly ProjectListItem[]) => list.map((r) => r.id);

  it('orders by the newest activity seen, a project with none by its creation date; nothing known goes last', () => {
    expect(ids(orderProjects(rows, '', { key: 'activity', direction: 'desc' }, activityOf))).toEqual([
      'old-busy',
      'new-quiet',
      'undated-seen',
      'mid',
      'undated',
    ]);
    expect(ids(orderProjects(rows, '', { key: 'activity', direction: 'asc' }, activityOf))).toEqual([
      'mid',
      'undated-seen',
      'new-quiet',
      'old-busy',
      'undated',
    ]);
    expect(lastActivityTime(rows[0]!, activityOf)).toBe(Date.parse('2026-04-01T10:00:00Z'));
    expect(lastActivityTime(rows[2]!, activityOf)).toBe(Date.parse('2026-02-01T10:00:00Z'));
  });

  it('with nothing seen it is the creation order', () => {
    expect(ids(orderProjects(rows, '', { key: 'activity', direction: 'desc' }))).toEqual(
      ids(orderProjects(rows, '', { key: 'created', direction: 'desc' })),
    );
  });
});
