/**
 * The lint rule `layout/import-boundaries` (eslint/import-boundaries.js) as the repo's ESLint config
 * runs it: each case lints one import from a file at a path in the tree (the file need not exist;
 * the rule reads the path) and checks the rule's answer. Only that rule runs, without type
 * information, so a case takes milliseconds.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ruleId = 'layout/import-boundaries';

const eslint = new ESLint({
  cwd: root,
  overrideConfigFile: join(root, 'eslint.config.js'),
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  ruleFilter: ({ ruleId: id }) => id === ruleId,
});

/** The messages linting `import { x } from '<specifier>'` in `file` gives. */
async function lintImport(file: string, specifier: string) {
  const code = `import { x } from '${specifier}';\nexport { x };\n`;
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  return (result?.messages ?? []).map(({ ruleId: id, message }) => ({ ruleId: id, message }));
}

describe('layout/import-boundaries refuses', () => {
  it.each([
    ['crds/schema/x.ts', '../../store/store.js', 'crds/ is the resource model'],
    ['network/x.ts', '../store/store.js', 'network/ (caller addresses'],
    ['store/x.ts', '../gateway/app.js', 'store/ imports the resource model'],
    ['gateway/x.ts', '../operator/run-operator.js', 'The gateway imports the store'],
    ['operator/x.ts', '../gateway/app.js', 'The operator imports the store'],
    ['ledger/x.ts', '../gateway/app.js', 'The ledger imports the store'],
    ['console/server/x.ts', '../../gateway/app.js', 'The console imports the store'],
    ['console/web/src/x.tsx', '../../server/app.js', 'The web app imports console/web/'],
    ['control-plane/x.ts', '../local/run-local.js', 'The control plane never imports'],
    ['local/x.ts', '../bin/commands.js', 'Local mode never imports bin/'],
    ['local/simulator/x.ts', '../../bin/commands.js', 'Local mode never imports bin/'],
    ['gateway/spec/x.ts', '../stages/forward/y.js', 'gateway/spec/ is a leaf'],
    ['gateway/bytes/x.ts', '../metering/y.js', 'gateway/bytes/ is a leaf'],
    [
      'gateway/stages/forward/x.ts',
      '../../protocols/anthropic-messages/y.js',
      'Shared gateway code imports nothing under protocols/',
    ],
    ['gateway/protocols/openai-chat/x.ts', '../anthropic-messages/y.js', 'A protocol is a leaf'],
    ['gateway/protocols/anthropic-messages/x.ts', '../antigravity/y.js', 'A protocol is a leaf'],
    ['gateway/protocols/google/x.ts', '../registry.js', 'A protocol is a leaf'],
    ['gateway/protocols/antigravity/x.ts', '../../stages/forward/y.js', 'A protocol is a leaf'],
    ['gateway/metering/x.ts', '../app.js', 'Only the routes and the gateway root import'],
    ['gateway/protocols/anthropic-messages/x.ts', '../../providers/y.js', 'A protocol is a leaf'],
    ['gateway/providers/aws-bedrock/x.ts', '../../stages/forward/y.js', 'A provider imports'],
    ['gateway/providers/direct/x.ts', '../../metering/y.js', 'A provider imports'],
    [
      'gateway/providers/azure-openai/x.ts',
      '../../protocols/openai-responses/y.js',
      'Shared gateway code imports nothing under protocols/',
    ],
    [
      'gateway/stages/forward/x.ts',
      '../../routes/responses-websocket/y.js',
      'Only the routes and the gateway root import',
    ],
    [
      'gateway/routes/responses-websocket/x.ts',
      '../../protocols/openai-responses/y.js',
      'Shared gateway code imports nothing under protocols/',
    ],
    ['bench/macro/x.ts', '../../test/e2e/console/console-browser.js', 'bench/ imports shipped'],
    ['gateway/bytes/x.ts', '../../test/support/redis-server.js', 'Shipped code never imports'],
    ['console/web/src/keys/x.tsx', '../../../../test/support/y.js', 'Shipped code never imports'],
    ['local/x.ts', '../bench/support/y.js', 'Shipped code never imports'],
    ['store/x.test.ts', '../test/integration/store/y.js', 'A test next to the source imports'],
  ])('%s importing %s', async (file, specifier, message) => {
    const messages = await lintImport(file, specifier);
    expect(messages).toEqual([{ ruleId, message: expect.stringContaining(message) as string }]);
  });
});

describe('layout/import-boundaries lets through', () => {
  it.each([
    ['gateway/stages/forward/x.ts', '../../protocols/registry.js'],
    ['gateway/protocols/registry.ts', './anthropic-messages/y.js'],
    ['gateway/protocols/antigravity/x.ts', '../google/y.js'],
    ['gateway/protocols/gemini-generate-content/x.ts', '../google/y.js'],
    ['gateway/protocols/openai-chat/x.ts', '../openai-responses/y.js'],
    ['gateway/protocols/antigravity/x.ts', '../anthropic-messages/y.js'],
    ['gateway/protocols/registry.test.ts', './google/y.js'],
    // A test of shared code may build its input with a protocol's converter; shipped code may not.
    ['gateway/stages/settle/x.test.ts', '../../protocols/google/y.js'],
    ['gateway/protocols/openai-chat/x.ts', '../../spec/y.js'],
    ['gateway/routes/x.ts', '../app.js'],
    ['gateway/providers/aws-bedrock/x.ts', '../../spec/upstream-provider.js'],
    ['gateway/providers/gcp-vertex-ai/x.ts', '../../upstreams/refresh-google-token.js'],
    ['gateway/providers/azure-openai/x.ts', '../../errors/y.js'],
    ['gateway/providers/aws-bedrock/x.ts', '../../bytes/y.js'],
    ['gateway/providers/registry.ts', './direct/y.js'],
    ['gateway/stages/forward/x.ts', '../../providers/registry.js'],
    ['gateway/routes/responses-websocket/x.ts', '../../stages/request/y.js'],
    ['gateway/routes/responses-websocket/x.ts', '../../bytes/y.js'],
    ['gateway/routes/x.ts', './responses-websocket/y.js'],
    ['gateway/stages/x.test.ts', '../../test/support/redis-server.js'],
    ['test/integration/x.test.ts', '../support/y.js'],
    ['test/e2e/x.ts', '../../local/run-local.js'],
    ['console/web/src/api/x.ts', '../../../server/keys/key-schemas.js'],
    ['console/web/src/keys/x.tsx', '../y.js'],
    ['console/web/src/keys/x.test.tsx', '../../../server/client-config/y.js'],
    ['console/server/x.ts', '../../ledger/y.js'],
    ['bench/micro/x.ts', '../../gateway/bytes/y.js'],
    ['bench/macro/x.ts', '../../test/support/redis-server.js'],
    ['local/x.ts', '../control-plane/y.js'],
    ['control-plane/x.ts', '../crds/y.js'],
  ])('%s importing %s', async (file, specifier) => {
    expect(await lintImport(file, specifier)).toEqual([]);
  });
});
