// @ts-check
/**
 * The rule `layout/import-boundaries`: the layout's dependency rules (docs/architecture.md), checked
 * on each relative import's resolved, repo-relative path. `boundaries` below is the whole rule, one
 * row per boundary, read top to bottom: the files a row applies to (`from`), the imports it refuses
 * (`refuses`) and why (`message`). An import is reported once, with the first row that refuses it.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.dirname(import.meta.dirname);

/** @typedef {(repoPath: string) => boolean} PathTest */
/** @typedef {{ from: PathTest, refuses: (target: string, file: string) => boolean, message: string }} Boundary */

/** The top-level folders that ship (everything but test/ and bench/). */
const shippedFolders = [
  'crds/',
  'network/',
  'store/',
  'gateway/',
  'operator/',
  'ledger/',
  'console/',
  'control-plane/',
  'local/',
  'bin/',
];

/** Each argument is a folder (ending in `/`) or one file. */
const inAny =
  (/** @type {string[]} */ ...places) =>
  (/** @type {string} */ repoPath) =>
    places.some((place) => (place.endsWith('/') ? repoPath.startsWith(place) : repoPath === place));
const shippedBut = (/** @type {string[]} */ ...allowed) =>
  inAny(...shippedFolders.filter((folder) => !allowed.includes(folder)));

const isTestFile = (/** @type {string} */ file) => /\.test\.tsx?$/.test(file);
const isShipped = (/** @type {string} */ file) =>
  inAny(...shippedFolders)(file) && !isTestFile(file);
const inTestButSupport = (/** @type {string} */ target) =>
  target.startsWith('test/') && !target.startsWith('test/support/');

/**
 * The console/server files the web app may import: console/web/tsconfig.json's `include` list,
 * read here so the list has one source.
 */
function webAppPlaces() {
  const file = path.join(root, 'console/web/tsconfig.json');
  const { config } = ts.readConfigFile(file, ts.sys.readFile);
  /** @type {string[]} */
  const include = config?.include ?? [];
  return include.map((entry) => {
    // A glob (`src/**/*.ts`) stands for the folder before its first wildcard.
    const glob = entry.indexOf('*');
    const place = path.posix.normalize(
      path.posix.join('console/web', glob === -1 ? entry : entry.slice(0, glob)),
    );
    return glob === -1 && /\.[cm]?[jt]sx?$/.test(place) ? place : `${place.replace(/\/$/, '')}/`;
  });
}
const webMayImport = inAny('console/web/', ...webAppPlaces());

const protocols = 'gateway/protocols/';
const registry = `${protocols}registry.ts`;
/** The protocol folder a path is in (`gateway/protocols/<protocol>/…`), if any. */
function protocolOf(/** @type {string} */ repoPath) {
  if (!repoPath.startsWith(protocols)) return undefined;
  const rest = repoPath.slice(protocols.length).split('/');
  return rest.length > 1 ? rest[0] : undefined;
}
/** Besides its own folder, the protocol folders a protocol may import. */
const protocolMayImport = /** @type {Record<string, string[]>} */ ({
  'gemini-generate-content': ['google'],
  antigravity: ['google', 'anthropic-messages'],
  'openai-chat': ['openai-responses'],
});
/** Shipped gateway code outside the protocols: the registry (and its test) aside. */
const isSharedGateway = (/** @type {string} */ file) =>
  file.startsWith('gateway/') && !file.startsWith(protocols) && !isTestFile(file);

/** @type {Boundary[]} */
const boundaries = [
  {
    from: isShipped,
    refuses: inAny('test/', 'bench/'),
    message: 'Shipped code never imports test/ or bench/.',
  },
  {
    from: (file) => isTestFile(file) && !file.startsWith('test/'),
    refuses: inTestButSupport,
    message: 'A test next to the source imports test/support/ only from test/.',
  },
  {
    from: inAny('bench/'),
    refuses: inTestButSupport,
    message: 'bench/ imports shipped code and test/support/ only.',
  },
  {
    from: inAny('crds/'),
    refuses: shippedBut('crds/'),
    message: 'crds/ is the resource model: it imports no other part.',
  },
  {
    from: inAny('network/'),
    refuses: shippedBut('network/'),
    message: 'network/ (caller addresses, trusted proxies) is shared: it imports no other part.',
  },
  {
    from: inAny('store/'),
    refuses: shippedBut('store/', 'crds/', 'network/'),
    message: 'store/ imports the resource model and network/ only.',
  },
  {
    from: inAny('gateway/'),
    refuses: shippedBut('gateway/', 'store/', 'crds/', 'network/'),
    message: 'The gateway imports the store, the resource model and network/ only.',
  },
  {
    from: inAny('operator/'),
    refuses: shippedBut('operator/', 'store/', 'crds/', 'network/'),
    message: 'The operator imports the store, the resource model and network/ only.',
  },
  {
    from: inAny('ledger/'),
    refuses: shippedBut('ledger/', 'store/', 'crds/', 'network/'),
    message: 'The ledger imports the store, the resource model and network/ only.',
  },
  {
    from: (file) => file.startsWith('console/web/') && !isTestFile(file),
    refuses: (target) => !target.startsWith('test/') && !webMayImport(target),
    message:
      'The web app imports console/web/ and the console/server files in console/web/tsconfig.json only.',
  },
  {
    from: inAny('console/'),
    refuses: shippedBut('console/', 'store/', 'ledger/', 'crds/', 'network/'),
    message: 'The console imports the store, the ledger, the resource model and network/ only.',
  },
  {
    from: inAny('local/'),
    refuses: inAny('bin/'),
    message:
      'Local mode never imports bin/: bin/ runs local mode, and no shipped code imports bin/.',
  },
  {
    from: inAny('control-plane/'),
    refuses: inAny('gateway/', 'operator/', 'ledger/', 'console/', 'local/', 'bin/'),
    message:
      'The control plane never imports the gateway, operator, ledger, console or local mode.',
  },
  {
    from: inAny('gateway/spec/'),
    refuses: (target) =>
      target.startsWith('gateway/') && !inAny('gateway/spec/', 'gateway/errors/')(target),
    message: 'gateway/spec/ is a leaf: it imports gateway/errors/ only.',
  },
  {
    from: inAny('gateway/bytes/'),
    refuses: (target) =>
      target.startsWith('gateway/') && !inAny('gateway/bytes/', 'gateway/spec/')(target),
    message: 'gateway/bytes/ is a leaf: it imports gateway/spec/ only.',
  },
  {
    from: isSharedGateway,
    refuses: (target) => target.startsWith(protocols) && target !== registry,
    message: `Shared gateway code imports nothing under protocols/ but ${registry}.`,
  },
  {
    from: (file) => protocolOf(file) !== undefined,
    refuses: (target, file) => {
      const own = /** @type {string} */ (protocolOf(file));
      const other = protocolOf(target);
      if (other !== undefined) return other !== own && !protocolMayImport[own]?.includes(other);
      return inAny(
        protocols,
        'gateway/stages/',
        'gateway/routes/',
        'gateway/app.ts',
        'gateway/providers/',
      )(target);
    },
    message:
      'A protocol is a leaf: its own folder and the leaves it builds on (google/; openai-responses/ for openai-chat; anthropic-messages/ for antigravity), no stage, route, app.ts, provider or protocols/ root.',
  },
  {
    from: inAny('gateway/providers/'),
    refuses: (target) =>
      target.startsWith('gateway/') &&
      !inAny(
        'gateway/providers/',
        'gateway/spec/',
        'gateway/bytes/',
        'gateway/errors/',
        'gateway/upstreams/',
      )(target),
    message:
      'A provider imports gateway/providers/, spec/, bytes/, errors/ and upstreams/ (token helpers) only.',
  },
  {
    from: (file) =>
      file.startsWith('gateway/') &&
      file.split('/').length > 2 &&
      !file.startsWith('gateway/routes/'),
    refuses: inAny('gateway/routes/', 'gateway/app.ts'),
    message: 'Only the routes and the gateway root import gateway/routes/ and gateway/app.ts.',
  },
];

/** The repo-relative path a relative specifier names, `.js` read as the `.ts(x)` source. */
function resolve(/** @type {string} */ file, /** @type {string} */ specifier) {
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
  if (!target.endsWith('.js')) return target;
  const source = target.replace(/\.js$/, '.ts');
  const isTsx =
    !fs.existsSync(path.join(root, source)) && fs.existsSync(path.join(root, `${source}x`));
  return isTsx ? `${source}x` : source;
}

/** @type {import('eslint').Rule.RuleModule} */
const importBoundaries = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const file = path.relative(root, context.filename).split(path.sep).join('/');
    const rules = boundaries.filter((boundary) => boundary.from(file));
    if (rules.length === 0) return {};
    /** @param {import('estree').Node & { source?: import('estree').Node | null }} node */
    function check(node) {
      const source = node.source;
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
      if (!source.value.startsWith('.')) return;
      const target = resolve(file, source.value);
      const rule = rules.find((boundary) => boundary.refuses(target, file));
      if (rule) context.report({ node: source, message: `${rule.message} (${target})` });
    }
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export const layoutPlugin = { rules: { 'import-boundaries': importBoundaries } };
