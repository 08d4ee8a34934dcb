/**
 * `npm run audit:security`: Electronegativity over the project (sources and, when built, out/), read from its SARIF
 * report (the tool itself exits 0 whatever it finds). Every finding must be covered by an entry with a written
 * justification in scripts/security-audit.allowlist.json; anything else fails the run.
 *
 *   tsx scripts/security-audit.ts [--input <dir>] [--sarif <copy report here>] [--allowlist <file>]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_ALLOWLIST = join(root, 'scripts', 'security-audit.allowlist.json');

/** One Electronegativity finding, as read from SARIF. */
export interface Finding {
  rule: string;
  level: string;
  file: string;
  line: number;
  message: string;
}

const allowlistSchema = z
  .object({
    /** Checks not run at all, each with the reason. */
    excludedChecks: z
      .array(z.object({ check: z.string().min(1), justification: z.string().min(30) }).strict())
      .default([]),
    allow: z.array(
      z
        .object({
          rule: z.string().min(1),
          /** Paths relative to the scanned folder (`/`-separated); `*` matches within a path segment. */
          files: z.array(z.string().min(1)).min(1),
          /** Why this is not a vulnerability here: where the code handles it. */
          justification: z.string().min(30),
        })
        .strict(),
    ),
  })
  .strict();
export type Allowlist = z.infer<typeof allowlistSchema>;

export function parseAllowlist(json: unknown): Allowlist {
  return allowlistSchema.parse(json);
}

const sarifSchema = z.object({
  runs: z.array(
    z.object({
      results: z
        .array(
          z.object({
            ruleId: z.string(),
            level: z.string().optional(),
            message: z.object({ text: z.string().optional() }).optional(),
            locations: z
              .array(
                z.object({
                  physicalLocation: z
                    .object({
                      artifactLocation: z.object({ uri: z.string() }).optional(),
                      region: z.object({ startLine: z.number().optional() }).optional(),
                    })
                    .optional(),
                }),
              )
              .optional(),
          }),
        )
        .default([]),
    }),
  ),
});

/** Findings from an Electronegativity SARIF report (run with `-r`, so paths are relative). */
export function parseSarif(json: unknown): Finding[] {
  return sarifSchema.parse(json).runs.flatMap((run) =>
    run.results.map((r) => {
      const location = r.locations?.[0]?.physicalLocation;
      return {
        rule: r.ruleId,
        level: r.level ?? 'warning',
        file: normalizeUri(location?.artifactLocation?.uri ?? ''),
        line: location?.region?.startLine ?? 0,
        message: r.message?.text ?? '',
      };
    }),
  );
}

function normalizeUri(uri: string): string {
  // Global checks report `file:///` (the whole application); file checks a relative path.
  if (uri === 'file:///' || uri === '') return '*';
  return uri.replaceAll('\\', '/').replace(/^\.\//, '');
}

function matches(pattern: string, file: string): boolean {
  if (pattern === file) return true;
  const regex = new RegExp(`^${pattern.split('*').map(escapeRegex).join('[^/]*')}$`);
  return regex.test(file);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export interface Judgement {
  explained: Array<Finding & { justification: string }>;
  unexplained: Finding[];
  /** Allowlist entries that matched nothing this run (kept honest by a warning). */
  unused: Allowlist['allow'];
}

/** Splits findings into those the allowlist explains and those it does not. */
export function judge(findings: readonly Finding[], allowlist: Allowlist): Judgement {
  const used = new Set<number>();
  const explained: Judgement['explained'] = [];
  const unexplained: Finding[] = [];
  for (const finding of findings) {
    const index = allowlist.allow.findIndex(
      (entry) => entry.rule === finding.rule && entry.files.some((pattern) => matches(pattern, finding.file)),
    );
    if (index < 0) {
      unexplained.push(finding);
      continue;
    }
    used.add(index);
    explained.push({ ...finding, justification: allowlist.allow[index]!.justification });
  }
  return { explained, unexplained, unused: allowlist.allow.filter((_, i) => !used.has(i)) };
}

/**
 * Electronegativity fetches its translations at start-up with a got@11 call whose retry crashes the process when
 * offline (an unhandled p-cancelable error). This preload answers that one request locally: the run never touches
 * the network and is the same in CI and on an offline machine.
 */
const OFFLINE_HOOK = `
const Module = require('node:module');
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === 'got' && parent && /electronegativity[\\\\/]dist[\\\\/]locales/.test(parent.filename)) {
    return () => Promise.reject(new Error('offline: translations are not fetched'));
  }
  return load.apply(this, arguments);
};
`;

/** Runs Electronegativity over `input` and returns its findings (plus the SARIF text). */
export function runElectronegativity(
  input: string,
  excludedChecks: readonly string[],
): { findings: Finding[]; sarif: string } {
  const work = mkdtempSync(join(tmpdir(), 'takedesk-audit-'));
  try {
    const hook = join(work, 'offline-hook.cjs');
    writeFileSync(hook, OFFLINE_HOOK);
    const report = join(work, 'electronegativity.sarif');
    const cli = join(root, 'node_modules', '@doyensec', 'electronegativity', 'dist', 'index.js');
    const electronVersion = (
      JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    const args = [
      '--require',
      hook,
      cli,
      '-i',
      input,
      '-o',
      report,
      '-r',
      '-v',
      'false',
      '-e',
      electronVersion,
    ];
    if (excludedChecks.length > 0) args.push('-x', excludedChecks.join(','));
    const run = spawnSync(process.execPath, args, {
      cwd: input,
      encoding: 'utf8',
      env: { ...process.env, LANG: 'en-US' },
    });
    if (run.status !== 0)
      throw new Error(`electronegativity failed (${run.status}):\n${run.stdout}${run.stderr}`);
    const sarif = readFileSync(report, 'utf8');
    return { findings: parseSarif(JSON.parse(sarif)), sarif };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function argValue(argv: readonly string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const input = resolve(argValue(argv, '--input') ?? root);
  const allowlist = parseAllowlist(
    JSON.parse(readFileSync(argValue(argv, '--allowlist') ?? DEFAULT_ALLOWLIST, 'utf8')),
  );
  const { findings, sarif } = runElectronegativity(
    input,
    allowlist.excludedChecks.map((e) => e.check),
  );
  const sarifCopy = argValue(argv, '--sarif');
  if (sarifCopy) {
    mkdirSync(dirname(resolve(sarifCopy)), { recursive: true });
    writeFileSync(resolve(sarifCopy), sarif);
  }
  const verdict = judge(findings, allowlist);
  for (const f of verdict.explained) console.log(`ok    ${f.rule} ${f.file}:${f.line}`);
  for (const entry of verdict.unused)
    console.log(`note  allowlist entry for ${entry.rule} matched nothing this run`);
  for (const f of verdict.unexplained) console.error(`FAIL  ${f.rule} ${f.file}:${f.line} ${f.message}`);
  console.log(
    `Electronegativity: ${findings.length} finding(s), ${verdict.explained.length} justified, ` +
      `${verdict.unexplained.length} unexplained; checks not run: ${allowlist.excludedChecks.map((e) => e.check).join(', ') || 'none'}`,
  );
  if (verdict.unexplained.length > 0) {
    console.error(
      'Fix the code, or add an entry with a justification to scripts/security-audit.allowlist.json.',
    );
    process.exit(1);
  }
}
