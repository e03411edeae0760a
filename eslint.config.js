// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Shared code never imports a protocol; protocols never import each other. */
const protocolFolders = [
  'anthropic-messages',
  'openai-responses',
  'openai-chat',
  'gemini-generate-content',
  'antigravity',
];

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
  ...protocolFolders.map((name) => ({
    files: [`gateway/protocols/${name}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: protocolFolders
            .filter((other) => other !== name)
            .map((other) => ({
              group: [`**/protocols/${other}/**`],
              message: 'Protocols are leaves.',
            })),
        },
      ],
    },
  })),
  {
    files: ['gateway/{pipeline,sse,errors,store,billing,translate}/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/protocols/**'], message: 'Shared code never imports a protocol.' },
          ],
        },
      ],
    },
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
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { URL: 'readonly', process: 'readonly', console: 'readonly' },
    },
  },
);
