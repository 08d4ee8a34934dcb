import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import vue from 'eslint-plugin-vue';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import { existsSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';

// Main's layers. app/ composes everything and nothing imports it; kernel/ holds helpers every layer uses and imports
// no other folder; the infrastructure folders (api, audio, media, security, secrets) and the features (every other
// folder: review, downloads, library, profiles, watcher, catalog) import kernel/, infrastructure, and another feature only
// through its index.ts. Production code never imports a test-support/ folder. Every file lives in a folder.
const mainDir = resolve(import.meta.dirname, 'electron/main');
const INFRASTRUCTURE = new Set(['api', 'audio', 'media', 'security', 'secrets']);
const layerOf = (folder) =>
  folder === 'app' || folder === 'kernel'
    ? folder
    : INFRASTRUCTURE.has(folder)
      ? 'infrastructure'
      : 'feature';

const mainLayers = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      loose: 'Every file of electron/main lives in a folder: app/, kernel/, a feature or infrastructure.',
      app: 'Nothing imports app/: it is the composition root. Take what you need as a parameter.',
      kernel: 'kernel/ imports no other folder of main: it is what every layer may use.',
      front: 'Import the {{folder}} feature through its index.ts (`{{spec}}`), not its insides.',
      testSupport: 'Production code does not import test support.',
    },
  },
  create(context) {
    const file = relative(mainDir, context.filename);
    if (file.startsWith('..')) return {};
    const [from, ...inside] = file.split(sep);
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = relative(mainDir, resolve(dirname(context.filename), spec));
      if (target.startsWith('..') || target === '') return;
      const [to, ...rest] = target.split(sep);
      const report = (messageId, data) => context.report({ node: node.source, messageId, data });
      if (rest.includes('test-support')) return report('testSupport');
      if (to === from) return;
      if (to === 'app') return report('app');
      if (layerOf(from) === 'kernel') return report('kernel');
      const front = rest.length === 0 || (rest.length === 1 && /^index(\.[jt]s)?$/u.test(rest[0]));
      if (layerOf(to) === 'feature' && !front && existsSync(resolve(mainDir, to)))
        report('front', { folder: to, spec: spec.slice(0, spec.lastIndexOf(to) + to.length) });
    };
    return {
      Program(node) {
        if (inside.length === 0) context.report({ node, messageId: 'loose' });
      },
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default tseslint.config(
  { ignores: ['node_modules', 'out', 'dist', 'release', 'coverage', 'e2e/artifacts', 'bench/results'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...vue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser } },
  },
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'vue/multi-word-component-names': 'off',
    },
  },
  {
    files: ['renderer/**/*.{ts,vue}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  // Runtime boundaries (docs/style.md#layout): shared/ is portable, renderer/ never reaches into electron/.
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'electron', 'electron/*'],
              message: 'shared/ runs in main and renderer: no Node or Electron imports.',
            },
            {
              group: ['**/electron/**', '**/renderer/**'],
              message: 'shared/ depends on nothing of the app.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,vue}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['electron', 'electron/*', 'node:*'],
              message: 'The renderer is untrusted: talk to main through the bridge.',
            },
            { group: ['**/electron/**'], message: 'The renderer never imports main-process code.' },
          ],
        },
      ],
    },
  },
  // Main and the sandbox are separate processes (the sandbox runs as a utility/child process): neither imports the
  // other. What both need lives in shared/ (pure data), electron/http/ (server-side helpers) or electron/files/
  // (file routines). Tests and the test-support/ folders may still start an in-process sandbox when that is what
  // they test.
  {
    files: ['electron/main/**/*.ts'],
    ignores: ['**/*.test.ts', '**/test-support/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/sandbox/**', '**/sandbox'],
              message:
                'Main talks to the sandbox over HTTP and starts it as a process; share data through shared/ or electron/http/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['electron/sandbox/**/*.ts'],
    ignores: ['**/*.test.ts', '**/test-support/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/main/**', '**/main'],
              message:
                'The sandbox is its own process: share code through shared/, electron/http/ or electron/files/.',
            },
          ],
        },
      ],
    },
  },
  // The neutral folders both processes import: they import neither.
  {
    files: ['electron/http/**/*.ts', 'electron/files/**/*.ts'],
    ignores: ['**/*.test.ts', '**/test-*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/main/**', '**/main', '**/sandbox/**', '**/sandbox'],
              message: 'Main and the sandbox both import this folder: it imports neither.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['electron/main/**/*.ts'],
    ignores: ['**/*.test.ts', '**/test-support/**'],
    plugins: { takedesk: { rules: { 'main-layers': mainLayers } } },
    rules: { 'takedesk/main-layers': 'error' },
  },
  prettier,
);
