/**
 * `npx tsx bench/profile/trace-request-path.ts [--json]`: the files one non-streamed `/v1/messages`
 * call runs code in, from V8's precise coverage (function call counts). The gateway on a memory
 * store and the fake provider in this process; one warm-up call, then the counted call and the
 * settlement it starts. Prints the files by folder (`--json`: as JSON). Shipped code only: tests,
 * the bench, the fake provider and node_modules are left out. Coverage counts calls, not their
 * order, so this lists where the call goes, not the sequence.
 */
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { startFakeProvider } from '../../local/simulator/start-fake-provider.js';
import {
  buildGateway,
  createKey,
  newSecrets,
  openStore,
  writeAccount,
  writeUpstreams,
} from '../../test/support/gateway-fixture.js';
import { groupFilesByFolder } from './group-files-by-folder.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const asJson = process.argv.includes('--json');

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });

const secrets = newSecrets();
const store = await openStore('memory', '');
const fake = await startFakeProvider({ port: 0 });
await writeUpstreams(store, { secrets, baseURL: fake.url });
const namespace = 'team-trace';
await writeAccount(store, namespace);
const { value } = await createKey(store, secrets, { platform: 'Anthropic', namespace });
const app = buildGateway(store, secrets);
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const body = JSON.stringify({
  model: 'claude-sonnet-4-6',
  max_tokens: 8,
  messages: [{ role: 'user', content: 'hi' }],
});

async function call(): Promise<number> {
  const response = await request(`${base}/v1/messages`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': value,
      'anthropic-version': '2023-06-01',
    },
    body,
  });
  await response.body.text();
  return response.statusCode;
}

/** The settlement runs after the response closes: give it time to finish before counting. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 300));

if ((await call()) !== 200) throw new Error('the warm-up call was not answered 200');
await settled();
await session.post('Profiler.takePreciseCoverage');
const status = await call();
await settled();
const { result } = await session.post('Profiler.takePreciseCoverage');

const files: string[] = [];
for (const script of result) {
  if (!script.url.startsWith('file://')) continue;
  const file = path.relative(root, fileURLToPath(script.url)).split(path.sep).join('/');
  if (file.startsWith('..') || file.includes('node_modules/')) continue;
  if (/^(test|bench|local\/simulator)\//.test(file)) continue;
  if (script.functions.some((fn) => fn.ranges.some((range) => range.count > 0))) files.push(file);
}
const folders = groupFilesByFolder(files);
if (asJson) {
  process.stdout.write(`${JSON.stringify({ status, files: files.length, folders }, null, 2)}\n`);
} else {
  const count = Object.keys(folders).length;
  process.stdout.write(`status ${status}: ${files.length} files in ${count} folders\n`);
  for (const [folder, names] of Object.entries(folders)) {
    process.stdout.write(`${folder}/ (${names.length})\n  ${names.join('\n  ')}\n`);
  }
}
await app.close();
await fake.close();
process.exit(0);
