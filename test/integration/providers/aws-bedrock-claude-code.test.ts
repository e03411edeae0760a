/**
 * Claude Code (the pinned CLI from test/clients) answering through a group whose only upstream is
 * AWS Bedrock: configured with the console's generated settings (as the first-run CLI suite does),
 * `claude -p` must print the fake Bedrock's answer and exit 0; every call it made reached the fake
 * Bedrock signed (the fake checks SigV4 with the AWS SDK's signer) and with the Bedrock model id
 * from modelOverrides, and its streams were re-emitted as the Anthropic SSE it reads.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateClientConfig } from '../../../console/server/client-config/generate-client-config.js';
import { foundationModelOf } from '../../../gateway/providers/aws-bedrock/map-bedrock-request.js';
import {
  clientBinFolder,
  CLIENTS_INSTALL_TIMEOUT_MS,
  ensureTestClients,
} from '../../support/install-test-clients.js';
import { inOrder } from '../gateway/upstream-failover-setup.js';
import {
  bedrockKey,
  env,
  putBedrockUpstream,
  staticKeys,
  useBedrockGateway,
} from './aws-bedrock-setup.js';

beforeAll(() => ensureTestClients(), CLIENTS_INSTALL_TIMEOUT_MS + 10_000);
useBedrockGateway();

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const BEDROCK_IDS: Record<string, string> = {
  'claude-sonnet-4-6': 'us.anthropic.claude-sonnet-4-6-v1:0',
  'claude-haiku-4-5': 'us.anthropic.claude-haiku-4-5-20251001-v1:0',
  'claude-opus-4-6': 'us.anthropic.claude-opus-4-6-v1:0',
};

function runClaude(home: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      join(clientBinFolder, 'claude'),
      ['-p', 'say hi'],
      {
        cwd: join(home, 'work'),
        // Only the generated settings file configures it (client-clis.test.ts does the same).
        env: {
          PATH: process.env.PATH ?? '',
          HOME: home,
          XDG_CONFIG_HOME: join(home, '.config'),
          CLAUDE_CODE_DISABLE_NONSTREAMING_FALLBACK: '1',
        },
        timeout: 120_000,
        maxBuffer: 8 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, output: `${stdout}\n${stderr}` });
      },
    );
    child.stdin?.end();
  });
}

describe('Claude Code through an AWS Bedrock-backed group', () => {
  it('answers with the Bedrock reply, every call signed and on a Bedrock model id', async () => {
    const name = await putBedrockUpstream({
      endpoint: env.bedrock.url,
      credentials: staticKeys(),
      modelOverrides: BEDROCK_IDS,
    });
    const key = await bedrockKey(inOrder(name));
    const config = generateClientConfig({
      platform: 'Anthropic',
      gatewayUrl: env.base,
      keyValue: key,
      keyName: 'claude-code-bedrock',
    });
    const tool = config.tools.find((candidate) => candidate.tool === 'claude-code');
    if (tool === undefined) throw new Error('no Claude Code configuration');
    const home = mkdtempSync(join(tmpdir(), 'tollgate-home-bedrock-'));
    folders.push(home);
    for (const file of tool.files) {
      const path = join(home, file.path.replace(/^~\//, ''));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.content);
    }
    mkdirSync(join(home, 'work'));
    const before = env.bedrock.requests.length;
    const refusals = env.bedrock.refusals;
    const result = await runClaude(home);
    expect(result.output).toContain('Hello from Bedrock.');
    expect(result.code).toBe(0);
    const calls = env.bedrock.requests.slice(before);
    expect(calls.some((call) => call.operation === 'invoke-stream')).toBe(true);
    // CountTokens names the foundation model (the inference profile's prefix removed).
    const ids = Object.values(BEDROCK_IDS).flatMap((id) => [id, foundationModelOf(id)]);
    for (const call of calls) expect(ids).toContain(call.modelId);
    expect(env.bedrock.refusals).toBe(refusals);
  }, 150_000);
});
