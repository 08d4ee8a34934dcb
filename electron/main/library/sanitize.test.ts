import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOSTILE_NAMES } from './test-support/hostile-names';
import {
  MAX_NAME_BYTES,
  PathEscapeError,
  libraryRelativePath,
  partPathFor,
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
        deliverableId: '9B1DEB4D-3B7D-4BAD-9BDD-2B0D7B3DCB6D',
        version: 2,
        format: 'wav',
      }),
    ).toBe('Summer Sale (3f2a9c1e)/voice_over-part1-9b1deb4d-v2.wav');
  });

  it('keeps a script’s text out of the project folder, in the hidden sidecar folder (issue 26 item 8)', () => {
    const parts = {
      projectId: '3f2a9c1e-1111-2222-3333-444455556666',
      projectTitle: 'Summer Sale',
      serviceSubCategory: 'scriptwriting',
      deliverableName: 'Script',
      deliverableId: '9B1DEB4D-3B7D-4BAD-9BDD-2B0D7B3DCB6D',
      version: 1,
    };
    expect(libraryRelativePath({ ...parts, format: 'txt' })).toBe(
      '.takedesk/sidecars/Summer Sale (3f2a9c1e)/scriptwriting-Script-9b1deb4d-v1.txt',
    );
    expect(libraryRelativePath({ ...parts, format: 'pdf' })).toBe(
      'Summer Sale (3f2a9c1e)/scriptwriting-Script-9b1deb4d-v1.pdf',
    );
  });

  it('gives two deliverables with names that sanitise alike two paths (issue 13, item 4)', () => {
    const names = ['Take/1', 'Take:1', 'Take|1', 'Take_1', '..', '...', '1', '1'];
    const paths = names.map((deliverableName, i) =>
      libraryRelativePath({
        projectId: '3f2a9c1e-1111-2222-3333-444455556666',
        projectTitle: 'P',
        serviceSubCategory: 'voice_over',
        deliverableName,
        deliverableId: `${i}f2a9c1e-aaaa-4bbb-8ccc-ddddeeeeffff`,
        version: 1,
        format: 'wav',
      }),
    );
    expect(new Set(paths).size).toBe(names.length);
    // Ids that are not UUIDs (or are hostile) still give 8 safe characters, stable and distinct.
    const odd = ['Take/1', 'Take:1', '..', '', 'x'.repeat(300)].map((deliverableId) =>
      libraryRelativePath({
        projectId: 'p',
        projectTitle: 'P',
        serviceSubCategory: 'voice_over',
        deliverableName: '1',
        deliverableId,
        version: 1,
        format: 'wav',
      }),
    );
    expect(new Set(odd).size).toBe(odd.length);
    for (const rel of odd) expect(rel).toMatch(/^P \(p\)\/voice_over-1-[0-9a-f]{8}-v1\.wav$/u);
  });

  it('names .part files by job, beside the planned name, never a final name', () => {
    const rel = 'P (p)/voice_over-1-9b1deb4d-v1.wav';
    const a = partPathFor(rel, '11111111-2222-4333-8444-555555555555');
    const b = partPathFor(rel, '66666666-2222-4333-8444-555555555555');
    expect(a).not.toBe(b);
    expect(a.startsWith('P (p)/voice_over-1-9b1deb4d-v1.wav.')).toBe(true);
    expect(a.endsWith('.part')).toBe(true);
    expect(partPathFor(rel, '../../x').split('/')).toHaveLength(2);
  });

  it.each(HOSTILE_NAMES)('hostile name %j stays one folder + one file inside the library', (name) => {
    const root = mkdtempSync(join(tmpdir(), 'lib-'));
    const rel = libraryRelativePath({
      projectId: name,
      projectTitle: name,
      serviceSubCategory: name,
      deliverableName: name,
      deliverableId: name,
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
