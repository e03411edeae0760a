// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import path from 'node:path';

/**
 * The layout's dependency rules (docs/architecture.md), checked on resolved paths rather than on
 * import strings: each entry names the folders a file may not import from.
 */

const root = import.meta.dirname;
const protocolRoot = 'gateway/protocols/';
const sharedGatewayFolders = [
  'stages',
  'spec',
  'bytes',
  'upstreams',

  'errors',
  'billing',
  'metering',

  'models',
  'metrics',
];

/** @returns {{ message: string, forbidden: (target: string) => boolean }[]} */
function rulesFor(/** @type {string} */ file) {
  const rules = [];
  const isTest = file.endsWith('.test.ts');
  const under = (/** @type {string} */ folder) => (/** @type {string} */ target) =>
    target.startsWith(folder);
  if (file.startsWith('crds/')) {
    rules.push({
      message: 'crds/ is the resource model: it imports no other part.',
      forbidden: (/** @type {string} */ t) => !t.startsWith('crds/'),
    });
  }
  if (file.startsWith('network/')) {
    rules.push({
      message: 'network/ (caller addresses, trusted proxies) is shared: it imports no other part.',
      forbidden: (/** @type {string} */ t) => !t.startsWith('network/'),
    });
  }
  if (file.startsWith('store/')) {
    rules.push({
      message:
        'store/ is shared by the operator, the gateway and the ledger: it imports none of them.',
      forbidden: (/** @type {string} */ t) =>
        ['gateway/', 'operator/', 'ledger/', 'local/', 'console/'].some((folder) =>
          t.startsWith(folder),
        ),
    });
  }
  if (file.startsWith('ledger/') && !isTest) {
    rules.push({
      message:
        'The ledger reads the store and nothing of the gateway, operator, console or local mode.',
      forbidden: (/** @type {string} */ t) =>
        ['gateway/', 'operator/', 'local/', 'console/'].some((folder) => t.startsWith(folder)),
    });
  }
  if (file.startsWith('operator/')) {
    rules.push({
      message: 'The operator never imports the gateway, the console or local mode.',
      forbidden: (/** @type {string} */ t) =>
        ['gateway/', 'local/', 'console/'].some((folder) => t.startsWith(folder)),
    });
  }
  if (file.startsWith('gateway/') && !isTest) {
    rules.push({
      message: 'The gateway never imports the operator, the console or local mode.',
      forbidden: (/** @type {string} */ t) =>
        ['operator/', 'local/', 'console/'].some((folder) => t.startsWith(folder)),
    });
  }
  if (file.startsWith('console/') && !isTest) {
    rules.push({
      message: 'The console imports the store, the ledger and the resource model only.',
      forbidden: (/** @type {string} */ t) =>
        ['gateway/', 'operator/', 'local/'].some((folder) => t.startsWith(folder)),
    });
  }
  const protocol = file.startsWith(protocolRoot) ? file.slice(protocolRoot.length).split('/') : [];
  if (protocol.length > 1) {
    const own = `${protocolRoot}${protocol[0]}/`;
    rules.push({
      message: 'Protocols are leaves: no other protocol, no pipeline, no routes.',
      forbidden: (/** @type {string} */ t) =>
        (t.startsWith(protocolRoot) &&
          t.slice(protocolRoot.length).includes('/') &&
          !t.startsWith(own)) ||
        under('gateway/stages/')(t) ||
        under('gateway/routes/')(t) ||
        t === 'gateway/app.ts',
    });
  }
  if (sharedGatewayFolders.some((folder) => file.startsWith(`gateway/${folder}/`))) {
    rules.push({
      message: 'Shared gateway code never imports a protocol, the routes or the app.',
      forbidden: (/** @type {string} */ t) =>
        (t.startsWith(protocolRoot) && t.slice(protocolRoot.length).includes('/')) ||
        under('gateway/routes/')(t) ||
        t === 'gateway/app.ts',
    });
  }
  return rules;
}

/** @type {import('eslint').Rule.RuleModule} */
const layoutRule = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const file = path.relative(root, context.filename).split(path.sep).join('/');
    const rules = rulesFor(file);
    if (rules.length === 0) return {};
    /** @param {import('estree').Node & { source?: import('estree').Node | null }} node */
    function check(node) {
      const source = node.source;
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
      if (!source.value.startsWith('.')) return;
      const target = path.posix
        .normalize(path.posix.join(path.posix.dirname(file), source.value))
        .replace(/\.js$/, '.ts');
      for (const rule of rules) {
        if (rule.forbidden(target)) {
          context.report({ node: source, message: `${rule.message} (${target})` });
        }
      }
    }
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

const layoutPlugin = { rules: { 'import-boundaries': layoutRule } };

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
    files: ['**/*.ts'],
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
