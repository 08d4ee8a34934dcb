import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import vue from 'eslint-plugin-vue';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

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
  // (file routines). Tests and test
  // support files may still start an in-process sandbox when that is what they test.
  {
    files: ['electron/main/**/*.ts'],
    ignores: ['**/*.test.ts', '**/test-*.ts'],
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
    ignores: ['**/*.test.ts', '**/test-*.ts'],
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
  prettier,
);
