import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');

/** Non-test TypeScript files under a folder (test files and test-*.ts support files may start an in-process sandbox). */
function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !/(^|\/)test-[^/]*\.ts$/.test(f))
    .map((f) => join(dir, f));
}

/** Every module specifier a file imports or re-exports (static and dynamic). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm))
    found.push(m[1]!);
  return found;
}

/** Files of `from` that import something resolving inside `into`. */
function crossImports(from: string, into: string): string[] {
  const target = join(root, into);
  return sourceFiles(from).flatMap((file) =>
    importsOf(file)
      .filter((spec) => spec.startsWith('.'))
      .filter((spec) => resolve(join(root, file, '..'), spec).startsWith(`${target}/`))
      .map((spec) => `${relative(root, join(root, file))} -> ${spec}`),
  );
}

describe('main and the sandbox are separate processes that never import each other', () => {
  it('no source file of electron/main imports electron/sandbox', () => {
    expect(crossImports('electron/main', 'electron/sandbox')).toEqual([]);
  });

  it('no source file of electron/sandbox imports electron/main', () => {
    expect(crossImports('electron/sandbox', 'electron/main')).toEqual([]);
  });

  it('no source file of the neutral folders both import (electron/http, electron/files) imports either', () => {
    for (const neutral of ['electron/http', 'electron/files'])
      for (const side of ['electron/main', 'electron/sandbox'])
        expect(crossImports(neutral, side)).toEqual([]);
  });

  it('the lint rule refuses such an import in either direction, and allows the neutral places', async () => {
    const eslint = new ESLint({ cwd: root });
    const restricted = async (code: string, filePath: string) =>
      (await eslint.lintText(code, { filePath: join(root, filePath) }))[0]!.messages
        .filter((m) => m.ruleId === 'no-restricted-imports')
        .map((m) => m.line);
    const probe = (spec: string) => `import { x } from '${spec}';\nexport const y = x;\n`;
    expect(await restricted(probe('../sandbox/server'), 'electron/main/probe.ts')).toEqual([1]);
    expect(await restricted(probe('../../sandbox/data/pros'), 'electron/main/api/probe.ts')).toEqual([1]);
    expect(await restricted(probe('../main/media/media-registry'), 'electron/sandbox/probe.ts')).toEqual([1]);
    expect(await restricted(probe('../../main/events'), 'electron/sandbox/media/probe.ts')).toEqual([1]);
    expect(await restricted(probe('../http/file-response'), 'electron/sandbox/probe.ts')).toEqual([]);
    expect(await restricted(probe('../files/stale-temp-files'), 'electron/sandbox/probe.ts')).toEqual([]);
    expect(await restricted(probe('../files/stale-temp-files'), 'electron/main/probe.ts')).toEqual([]);
    expect(await restricted(probe('../main/state-recovery'), 'electron/files/probe.ts')).toEqual([1]);
    expect(await restricted(probe('../sandbox/persistence'), 'electron/http/probe.ts')).toEqual([1]);
    expect(await restricted(probe('../../shared/catalogue/tracks'), 'electron/main/probe.ts')).toEqual([]);
    // Tests may still start an in-process sandbox: that is what some of them test.
    expect(await restricted(probe('../sandbox/server'), 'electron/main/probe.test.ts')).toEqual([]);
  }, 60_000);
});
