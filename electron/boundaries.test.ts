import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');

/** Non-test TypeScript files under a folder (test files and test-support/ folders may start an in-process sandbox). */
function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.split('/').includes('test-support'))
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
    expect(await restricted(probe('../../sandbox/server'), 'electron/main/app/probe.ts')).toEqual([1]);
    expect(await restricted(probe('../../sandbox/data/pros'), 'electron/main/api/probe.ts')).toEqual([1]);
    expect(await restricted(probe('../main/media/media-registry'), 'electron/sandbox/probe.ts')).toEqual([1]);
    expect(await restricted(probe('../../main/kernel/events'), 'electron/sandbox/media/probe.ts')).toEqual([
      1,
    ]);
    expect(await restricted(probe('../http/file-response'), 'electron/sandbox/probe.ts')).toEqual([]);
    expect(await restricted(probe('../files/stale-temp-files'), 'electron/sandbox/probe.ts')).toEqual([]);
    expect(await restricted(probe('../../files/stale-temp-files'), 'electron/main/kernel/probe.ts')).toEqual(
      [],
    );
    expect(await restricted(probe('../main/kernel/state-recovery'), 'electron/files/probe.ts')).toEqual([1]);
    expect(await restricted(probe('../sandbox/persistence'), 'electron/http/probe.ts')).toEqual([1]);
    expect(await restricted(probe('../../../shared/catalogue/tracks'), 'electron/main/app/probe.ts')).toEqual(
      [],
    );
    // Tests and test support may still start an in-process sandbox: that is what some of them test. Support is
    // exempt by its folder, not by its name.
    expect(await restricted(probe('../../sandbox/server'), 'electron/main/app/probe.test.ts')).toEqual([]);
    expect(
      await restricted(probe('../../../sandbox/server'), 'electron/main/app/test-support/probe.ts'),
    ).toEqual([]);
    expect(await restricted(probe('../../sandbox/server'), 'electron/main/app/test-probe.ts')).toEqual([1]);
  }, 60_000);
});

describe("main's layers: app/ composes, kernel/ serves all, features meet through their index.ts", () => {
  const eslint = new ESLint({ cwd: root });
  /** What the layer rule says of `import { x } from spec` in `filePath`: its message ids. */
  const layers = async (spec: string, filePath: string) =>
    (
      await eslint.lintText(`import { x } from '${spec}';\nexport const y = x;\n`, {
        filePath: join(root, filePath),
      })
    )[0]!.messages
      .filter((m) => m.ruleId === 'takedesk/main-layers')
      .map((m) => m.message.split(':')[0]!.split(' (')[0]);

  it("refuses an import of app/, kernel/ reaching out, a feature's insides and production code using test support", async () => {
    expect(await layers('../app/services', 'electron/main/review/probe.ts')).toEqual([
      'Nothing imports app/',
    ]);
    expect(await layers('../app/hosts/browser-host', 'electron/main/media/probe.ts')).toEqual([
      'Nothing imports app/',
    ]);
    expect(await layers('../profiles', 'electron/main/kernel/probe.ts')).toEqual([
      'kernel/ imports no other folder of main',
    ]);
    expect(await layers('../library/safe-fs', 'electron/main/downloads/probe.ts')).toEqual([
      'Import the library feature through its index.ts',
    ]);
    expect(await layers('../review/decisions', 'electron/main/audio/probe.ts')).toEqual([
      'Import the review feature through its index.ts',
    ]);
    expect(
      await layers('../../downloads/test-support/crash-child', 'electron/main/app/hosts/probe.ts'),
    ).toEqual(['Production code does not import test support.']);
    expect(await layers('./test-support/test-clock', 'electron/main/watcher/probe.ts')).toEqual([
      'Production code does not import test support.',
    ]);
    // A file loose at main's root belongs in a folder.
    expect(await layers('./kernel/events', 'electron/main/probe.ts')).toEqual([
      'Every file of electron/main lives in a folder',
    ]);
  }, 60_000);

  it('allows the layers as laid out, and exempts tests and test-support/ folders by folder', async () => {
    expect(await layers('../library', 'electron/main/downloads/probe.ts')).toEqual([]);
    expect(await layers('../library/index', 'electron/main/downloads/probe.ts')).toEqual([]);
    expect(await layers('../kernel/events', 'electron/main/review/probe.ts')).toEqual([]);
    expect(await layers('../api/client', 'electron/main/review/probe.ts')).toEqual([]);
    expect(await layers('./decisions', 'electron/main/review/probe.ts')).toEqual([]);
    expect(await layers('../review', 'electron/main/app/probe.ts')).toEqual([]);
    expect(await layers('../../review/decisions', 'electron/main/app/electron/probe.ts')).toEqual([
      'Import the review feature through its index.ts',
    ]);
    expect(await layers('./state-recovery', 'electron/main/kernel/probe.ts')).toEqual([]);
    expect(await layers('../app/services', 'electron/main/review/probe.test.ts')).toEqual([]);
    expect(await layers('../../app/services', 'electron/main/review/test-support/probe.ts')).toEqual([]);
  }, 60_000);

  it('the tree as it is passes the rule', async () => {
    const results = await eslint.lintFiles(['electron/main']);
    const found = results.flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId === 'takedesk/main-layers')
        .map((m) => `${relative(root, r.filePath)}:${m.line} ${m.message}`),
    );
    expect(found).toEqual([]);
  }, 120_000);
});
