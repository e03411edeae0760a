// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layoutPlugin } from './eslint/import-boundaries.js';

export default tseslint.config(
  {
    ignores: ['node_modules/**', 'dist/**', 'console/web/dist/**', 'coverage/**', '.tollgate/**'],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unnecessary-condition': [
        'error',
        { allowConstantLoopConditions: true },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'max-params': ['error', 3],
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Use undici with an explicit pool.' },
      ],
    },
  },
  {
    // The layout's dependency rules (docs/architecture.md), in eslint/import-boundaries.js.
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { layout: layoutPlugin },
    rules: { 'layout/import-boundaries': 'error' },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'max-params': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-restricted-globals': 'off',
    },
  },
  {
    // The console web app runs in the browser, whose HTTP client is fetch.
    files: ['console/web/**/*.ts', 'console/web/**/*.tsx'],
    rules: { 'no-restricted-globals': 'off' },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { URL: 'readonly', process: 'readonly', console: 'readonly' },
    },
  },
);
