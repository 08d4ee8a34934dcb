import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  MAX_NAME_BYTES,
  PathEscapeError,
  libraryRelativePath,
  resolveInside,
  sanitizeName,
  truncateUtf8,
} from './sanitize';

const bytes = (s: string) => new TextEncoder().encode(s).length;

describe('sanitizeName', () => {
  it.each([
    ['plain', 'Spot 30s', 'Spot 30s'],
    ['traversal', '../../etc/passwd', '_._etc_passwd'],
    ['dot dot alone', '..', 'untitled'],
    ['single dot', '.', 'untitled'],
    ['mixed separators', 'a/b\\c', 'a_b_c'],
    ['reserved CON', 'CON', '_CON'],
    ['reserved lower case with extension', 'nul.txt', '_nul.txt'],
    ['reserved COM1', 'COM1', '_COM1'],
    ['reserved LPT superscript', 'LPT¹', '_LPT¹'],
    ['not reserved when longer', 'CONSOLE', 'CONSOLE'],
    ['NUL byte only', '\u0000', 'untitled'],
    ['control characters removed', 'a\u0001b\u001fc\u007f', 'abc'],
    ['RTL override removed', 'evil\u202Egnp.exe', 'evilgnp.exe'],
    ['bidi isolates removed', '\u2066x\u2069', 'x'],
    ['leading dots', '...hidden', 'hidden'],
    ['trailing dots and spaces', 'name. . ', 'name'],
    ['windows-forbidden characters', 'a<b>c:d"e|f?g*h', 'a_b_c_d_e_f_g_h'],
    ['whitespace collapsed', ' a \t\n b ', 'a b'],
    ['empty', '', 'untitled'],
    ['only spaces', '   ', 'untitled'],
    ['emoji kept', 'Take 🎙️ one', 'Take 🎙️ one'],
    ['NFC', 'Cafe\u0301', 'Café'],
  ])('%s', (_label, input, expected) => {
    expect(sanitizeName(input)).toBe(expected);
  });

  it('caps length in UTF-8 bytes without splitting characters', () => {
    const long = 'é'.repeat(300);
    const out = sanitizeName(long);
    expect(bytes(out)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(out).toBe('é'.repeat(MAX_NAME_BYTES / 2));
    expect(sanitizeName('a'.repeat(300))).toHaveLength(MAX_NAME_BYTES);
  });

  it('never splits an emoji grapheme', () => {
    const family = '👨‍👩‍👧‍👦'; // 25 bytes
    expect(truncateUtf8(family.repeat(3), 60)).toBe(family.repeat(2));
    expect(truncateUtf8(family, 24)).toBe('');
  });

  it('does not end in a dot or space after truncation', () => {
    const out = sanitizeName(`${'a'.repeat(MAX_NAME_BYTES - 1)}. b`);
    expect(out.endsWith('.') || out.endsWith(' ')).toBe(false);
  });
});

describe('libraryRelativePath', () => {
  it('builds the readable layout', () => {
    expect(
      libraryRelativePath({
        projectId: '3f2a9c1e-1111-2222-3333-444455556666',
        projectTitle: 'Summer Sale',
        serviceSubCategory: 'voice_over',
        deliverableName: 'part1',
        version: 2,
        format: 'wav',
      }),
    ).toBe('Summer Sale (3f2a9c1e)/voice_over-part1-v2.wav');
  });

  const hostile = [
    '../../etc/passwd',
    'a/b\\c',
    'CON',
    '\u0000',
    'x'.repeat(300),
    '🎧'.repeat(100),
    '\u202Etxt.exe',
    '..',
    '/abs',
    'C:\\x',
  ];
  it.each(hostile)('hostile name %j stays one folder + one file inside the library', (name) => {
    const root = mkdtempSync(join(tmpdir(), 'lib-'));
    const rel = libraryRelativePath({
      projectId: name,
      projectTitle: name,
      serviceSubCategory: name,
      deliverableName: name,
      version: 1,
      format: 'mp3',
    });
    expect(rel.split('/')).toHaveLength(2);
    for (const part of rel.split('/')) {
      expect(bytes(part)).toBeLessThanOrEqual(255);
      // eslint-disable-next-line no-control-regex -- asserting control characters are gone
      expect(part).not.toMatch(/^\.|[\s.]$|[\u0000-\u001f\\]/u);
    }
    const abs = resolveInside(root, rel);
    const back = relative(root, abs);
    expect(back.startsWith('..')).toBe(false);
    expect(back.split(sep)).toHaveLength(2);
    expect(rel.endsWith('-v1.mp3')).toBe(true);
  });
});

describe('resolveInside', () => {
  const root = join(tmpdir(), 'lib-root');
  it.each(['../x', 'a/../../x', '/etc/passwd', '', '.', 'a/..', 'C:/x', 'a\u0000b', 'a\\..\\..\\x'])(
    'rejects %j',
    (rel) => {
      expect(() => resolveInside(root, rel)).toThrow(PathEscapeError);
    },
  );
  it('accepts a nested path', () => {
    expect(resolveInside(root, 'p (1)/f.wav')).toBe(join(root, 'p (1)', 'f.wav'));
  });
});
