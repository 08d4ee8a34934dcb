import { describe, expect, it } from 'vitest';
import { createProCatalogue } from './pros';
import { AWAY_ONE_WEEK_IN, createTalentRoster } from './talents';

const pros = createProCatalogue();
const roster = createTalentRoster({ pros });

describe('talent roster', () => {
  it('picks a stable talent that fits the language and voice', () => {
    const a = roster.talentFor('deliverable-1', { language: 'deu-de', genderAndAge: 'middleAgeMale' });
    expect(roster.talentFor('deliverable-1', { language: 'deu-de', genderAndAge: 'middleAgeMale' })).toBe(a);
    expect(a.languages).toContain('deu-de');
    // Falls back to the language alone when no pro has both.
    expect(roster.talentFor('x', { language: 'isl-is', genderAndAge: 'child' }).languages).toContain(
      'isl-is',
    );
  });

  it('has talents away for about one week in eight, until the next Monday', () => {
    const now = new Date('2026-03-11T10:00:00Z'); // a Wednesday
    const away = pros.map((p) => roster.awayUntil(p.publicId, now)).filter((d): d is Date => d !== null);
    expect(away.length).toBeGreaterThan(pros.length / AWAY_ONE_WEEK_IN / 2);
    expect(away.length).toBeLessThan((pros.length / AWAY_ONE_WEEK_IN) * 2);
    for (const d of away) expect(d.toISOString()).toBe('2026-03-16T00:00:00.000Z');
    // Same week, same answer; the absence is over the week after for most.
    const id = pros.find((p) => roster.awayUntil(p.publicId, now))!.publicId;
    expect(roster.awayUntil(id, new Date('2026-03-15T23:00:00Z'))).toEqual(new Date('2026-03-16T00:00:00Z'));
  });

  it('gives each contest several different, stable entrants', () => {
    const entrants = roster.contestEntrants('project-9', 4, { language: 'eng-us' });
    expect(entrants).toHaveLength(4);
    expect(new Set(entrants.map((p) => p.publicId)).size).toBe(4);
    expect(entrants.every((p) => p.languages.includes('eng-us'))).toBe(true);
    expect(roster.contestEntrants('project-9', 4, { language: 'eng-us' })).toEqual(entrants);
    expect(roster.contestEntrants('project-10', 4, { language: 'eng-us' })).not.toEqual(entrants);
  });
});
