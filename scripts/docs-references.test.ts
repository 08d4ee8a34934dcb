import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

// The names of documents that lived beside the repository, spelled in pieces so this file does not cite them.
const OUTSIDE = [
  ['service', 'facts'].join('-'),
  ['creative', 'audio', 'api'].join('-'),
  ...['spec', 'ARCHITECTURE', 'STYLE'].map((name) => ['..', 'shared', name].join('/')),
  ['ARCHITECTURE', 'md'].join('.'),
  ['STYLE', 'md'].join('.'),
];
// Shorthands that pointed into those documents: a section sign after "spec", a page written "D:<page>".
const SHORTHANDS = [/\bspec §/, /\bD:[a-z]+\//];

/** Tracked text files, as a clone has them. */
function trackedFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' });
  return out
    .split('\0')
    .filter(Boolean)
    .filter((f) => /\.(ts|vue|js|mjs|cjs|json|md|yml|yaml|css|html)$/.test(f))
    .filter((f) => !f.startsWith('docs/') && f !== 'package-lock.json');
}

const read = (file: string) => readFileSync(join(root, file), 'utf8');

/** Every `docs/<file>.md#<anchor>` cited anywhere, with where. */
function citedAnchors(files: readonly string[]): { where: string; doc: string; anchor: string }[] {
  const found: { where: string; doc: string; anchor: string }[] = [];
  for (const file of files) {
    for (const m of read(file).matchAll(/docs\/([a-z-]+\.md)#([a-z0-9-]+)/g)) {
      found.push({ where: file, doc: m[1]!, anchor: m[2]! });
    }
  }
  return found;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsIn(doc: string): Set<string> {
  const text = read(join('docs', doc));
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]!)));
}

describe('the repository stands on its own', () => {
  const files = trackedFiles();

  it('finds the files to check (git ls-files works here)', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('electron/main/api/client.ts');
  });

  it('cites no document outside the repository: code and READMEs point to docs/', () => {
    const hits = files.flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, i) =>
          OUTSIDE.some((name) => line.includes(name)) || SHORTHANDS.some((re) => re.test(line))
            ? [`${file}:${i + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(hits).toEqual([]);
  });

  it('every docs/ section cited exists', () => {
    const anchors = new Map<string, Set<string>>();
    const missing = citedAnchors([...files, 'docs/service.md', 'docs/architecture.md', 'docs/style.md'])
      .filter(({ doc, anchor }) => {
        if (!anchors.has(doc)) anchors.set(doc, anchorsIn(doc));
        return !anchors.get(doc)!.has(anchor);
      })
      .map(({ where, doc, anchor }) => `${where} -> docs/${doc}#${anchor}`);
    expect(missing).toEqual([]);
  });

  it('reads anchors as GitHub does', () => {
    expect(anchorOf('Categories, attributes and tracks')).toBe('categories-attributes-and-tracks');
    expect(anchorOf('Reason codes')).toBe('reason-codes');
  });
});
