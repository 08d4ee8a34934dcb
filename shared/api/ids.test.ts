import { describe, expect, it } from 'vitest';
import { contract } from '../ipc';
import { Id, ID_RULE_MESSAGE, isSafeId, MAX_ID_LENGTH } from './ids';

describe('the id rule (issue 13, item 7)', () => {
  it.each([
    ['a UUID', '6f1c2a9e-3b1d-4c8e-9f3a-1b2c3d4e5f60'],
    ['a category id', 'voice_over'],
    ['a kebab-case sub-category', 'post-production'],
    ['a camelCase attribute', 'genderAndAge'],
    ['a track number', '20'],
    ['a library digest', '0a1b2c3d4e5f60718293a4b5'],
    ['three dots (not a dot segment)', '...'],
    ['a prototype key (a record lookup must not care)', '__proto__'],
    ['non-ASCII text', 'é😀'],
    ['the longest accepted', 'x'.repeat(MAX_ID_LENGTH)],
  ])('accepts %s', (_label, id) => {
    expect(isSafeId(id)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['a dot segment', '.'],
    ['a double-dot segment', '..'],
    ['pre-encoded dots', '%2e%2e'],
    ['a slash', 'a/b'],
    ['a backslash', 'a\\b'],
    ['a query', '?x'],
    ['a fragment', '#'],
    ['a lone high surrogate', '\ud800'],
    ['a lone low surrogate', 'a\udc00'],
    ['a NUL', '\u0000'],
    ['a newline', 'a\nb'],
    ['DEL', '\u007f'],
    ['a C1 control', '\u0085'],
    ['too long', 'x'.repeat(MAX_ID_LENGTH + 1)],
    ['not a string', 42],
  ])('refuses %s', (_label, id) => {
    expect(isSafeId(id)).toBe(false);
    expect(Id.safeParse(id).success).toBe(false);
  });

  it('every contract input that carries an id uses the rule', () => {
    const refused: string[] = [];
    for (const [channel, spec] of Object.entries(contract)) {
      const shape = (spec.input as { shape?: Record<string, unknown> }).shape;
      if (!shape) continue;
      for (const key of Object.keys(shape).filter((k) => k === 'id' || k.endsWith('Id'))) {
        const result = spec.input.safeParse({ [key]: '..' });
        const issues = result.success ? [] : result.error.issues;
        if (issues.some((i) => i.path[0] === key && i.message === ID_RULE_MESSAGE))
          refused.push(`${channel}.${key}`);
      }
    }
    expect(refused.length).toBeGreaterThan(20);
    for (const entry of ['projects.get.id', 'deliverables.approve.id', 'revisions.versions.deliverableId']) {
      expect(refused).toContain(entry);
    }
  });
});
