import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ALLOWLIST,
  judge,
  parseAllowlist,
  parseSarif,
  runElectronegativity,
  type Finding,
} from './security-audit';

const allowlist = parseAllowlist(JSON.parse(readFileSync(DEFAULT_ALLOWLIST, 'utf8')));
const finding = (rule: string, file: string): Finding => ({
  rule,
  level: 'note',
  file,
  line: 1,
  message: '',
});

describe('security audit', () => {
  it('reads rule, file and line from Electronegativity SARIF; a global finding applies to "*"', () => {
    const sarif = {
      runs: [
        {
          results: [
            {
              ruleId: 'OPEN_EXTERNAL_JS_CHECK',
              level: 'note',
              message: { text: 'Review the use of openExternal' },
              locations: [
                {
                  physicalLocation: {
                    artifactLocation: { uri: 'electron\\main\\x.ts' },
                    region: { startLine: 7 },
                  },
                },
              ],
            },
            {
              ruleId: 'CSP_GLOBAL_CHECK',
              locations: [{ physicalLocation: { artifactLocation: { uri: 'file:///' } } }],
            },
          ],
        },
      ],
    };
    expect(parseSarif(sarif)).toEqual([
      {
        rule: 'OPEN_EXTERNAL_JS_CHECK',
        level: 'note',
        file: 'electron/main/x.ts',
        line: 7,
        message: 'Review the use of openExternal',
      },
      { rule: 'CSP_GLOBAL_CHECK', level: 'warning', file: '*', line: 0, message: '' },
    ]);
  });

  it('explains a finding only for its rule and its files', () => {
    const verdict = judge(
      [
        finding('OPEN_EXTERNAL_JS_CHECK', 'electron/main/app/electron/security.ts'),
        finding('OPEN_EXTERNAL_JS_CHECK', 'out/main/index.js'),
        finding('OPEN_EXTERNAL_JS_CHECK', 'electron/main/app/handlers.ts'),
        finding('OPEN_EXTERNAL_JS_CHECK', 'out/main/nested/index.js'),
        finding('NODE_INTEGRATION_JS_CHECK', 'electron/main/app/electron/security.ts'),
      ],
      allowlist,
    );
    expect(verdict.explained.map((f) => f.file)).toEqual([
      'electron/main/app/electron/security.ts',
      'out/main/index.js',
    ]);
    expect(verdict.unexplained.map((f) => `${f.rule} ${f.file}`)).toEqual([
      'OPEN_EXTERNAL_JS_CHECK electron/main/app/handlers.ts',
      'OPEN_EXTERNAL_JS_CHECK out/main/nested/index.js',
      'NODE_INTEGRATION_JS_CHECK electron/main/app/electron/security.ts',
    ]);
  });

  it('refuses an allowlist entry without a real justification', () => {
    expect(() =>
      parseAllowlist({ allow: [{ rule: 'X', files: ['a.ts'], justification: 'fine' }] }),
    ).toThrow();
    expect(() =>
      parseAllowlist({ allow: [{ rule: 'X', files: [], justification: 'x'.repeat(40) }] }),
    ).toThrow();
  });

  it('fails an insecure window: Electronegativity finds it and the allowlist does not cover it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'takedesk-insecure-'));
    try {
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({ name: 'x', devDependencies: { electron: '45.0.0' } }),
      );
      writeFileSync(
        join(dir, 'main.js'),
        "const { BrowserWindow } = require('electron');\n" +
          'new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false } });\n',
      );
      const { findings } = runElectronegativity(dir, ['AvailableSecurityFixesGlobalCheck']);
      const rules = judge(findings, allowlist).unexplained.map((f) => f.rule);
      expect(rules).toEqual(
        expect.arrayContaining([
          'CONTEXT_ISOLATION_JS_CHECK',
          'SANDBOX_JS_CHECK',
          'LIMIT_NAVIGATION_GLOBAL_CHECK',
        ]),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('the project itself has no unexplained finding', () => {
    const { findings } = runElectronegativity(
      join(import.meta.dirname, '..'),
      allowlist.excludedChecks.map((e) => e.check),
    );
    expect(findings.length).toBeGreaterThan(0);
    expect(judge(findings, allowlist).unexplained).toEqual([]);
  }, 120_000);
});
