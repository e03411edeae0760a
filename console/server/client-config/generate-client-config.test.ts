import { execFileSync } from 'node:child_process';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { Platform } from '../../../crds/schema/resources.js';
import { KEY_PLACEHOLDER, generateClientConfig } from './generate-client-config.js';
import { TOLLGATE_USAGE_SCRIPT } from './render-usage-script.js';

const base = {
  gatewayUrl: 'https://gw.example.com/',
  keyValue: 'sk-tg-abc',
  keyName: 'alice',
  consoleUrl: 'https://console.example.com',
};

function tool(platform: Platform, name: string) {
  const found = generateClientConfig({ ...base, platform }).tools.find((t) => t.tool === name);
  if (found === undefined) throw new Error(`${platform} has no ${name}`);
  return found;
}

function linkParams(link: string | null): Record<string, string> {
  if (link === null) throw new Error('no link');
  const url = new URL(link);
  expect([url.protocol, url.host, url.pathname]).toEqual(['ccswitch:', 'v1', '/import']);
  return Object.fromEntries(url.searchParams);
}

function decode(base64: string | undefined): string {
  return Buffer.from(base64 ?? '', 'base64').toString('utf8');
}

describe('generateClientConfig: tools, URLs and the model-list check per platform', () => {
  const table: {
    platform: Platform;
    tools: string[];
    baseUrl: string;
    usageUrl: string;
    checkCommand: string;
  }[] = [
    {
      platform: 'Anthropic',
      tools: ['claude-code', 'opencode'],
      baseUrl: 'https://gw.example.com',
      usageUrl: 'https://gw.example.com/v1/usage',
      checkCommand:
        "curl -sS 'https://gw.example.com/v1/models' -H 'Authorization: Bearer sk-tg-abc'",
    },
    {
      platform: 'OpenAI',
      tools: ['codex', 'opencode'],
      baseUrl: 'https://gw.example.com',
      usageUrl: 'https://gw.example.com/v1/usage',
      checkCommand:
        "curl -sS 'https://gw.example.com/v1/models' -H 'Authorization: Bearer sk-tg-abc'",
    },
    {
      platform: 'Gemini',
      tools: ['gemini-cli', 'opencode'],
      baseUrl: 'https://gw.example.com',
      usageUrl: 'https://gw.example.com/v1/usage',
      checkCommand:
        "curl -sS 'https://gw.example.com/v1beta/models' -H 'x-goog-api-key: sk-tg-abc'",
    },
    {
      platform: 'Antigravity',
      tools: ['claude-code', 'gemini-cli', 'opencode'],
      baseUrl: 'https://gw.example.com/antigravity',
      usageUrl: 'https://gw.example.com/antigravity/v1/usage',
      checkCommand:
        "curl -sS 'https://gw.example.com/antigravity/v1/models' -H 'Authorization: Bearer sk-tg-abc'",
    },
  ];
  it.each(table)('$platform', (row) => {
    const config = generateClientConfig({ ...base, platform: row.platform });
    expect(config.tools.map((t) => t.tool)).toEqual(row.tools);
    expect(config.baseUrl).toBe(row.baseUrl);
    expect(config.usageUrl).toBe(row.usageUrl);
    expect(config.checkCommand).toBe(row.checkCommand);
  });
});

describe('generateClientConfig: the files and environment of each tool', () => {
  it('Claude Code (Anthropic): settings.json env block with the Bearer token and quiet mode', () => {
    const claude = tool('Anthropic', 'claude-code');
    expect(claude.files).toEqual([
      {
        path: '~/.claude/settings.json',
        language: 'json',
        content: `{
  "env": {
    "ANTHROPIC_BASE_URL": "https://gw.example.com",
    "ANTHROPIC_AUTH_TOKEN": "sk-tg-abc",
    "ANTHROPIC_MODEL": "claude-sonnet-4-6",
    "ANTHROPIC_DEFAULT_HAIKU_MODEL": "claude-haiku-4-5",
    "ANTHROPIC_DEFAULT_SONNET_MODEL": "claude-sonnet-4-6",
    "ANTHROPIC_DEFAULT_OPUS_MODEL": "claude-opus-4-6",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"
  }
}
`,
        role: 'instead-of-environment',
      },
    ]);
    expect(claude.env.map((v) => v.name)).not.toContain('ANTHROPIC_API_KEY');
    expect(claude.shell.posix).toBe(
      [
        "export ANTHROPIC_BASE_URL='https://gw.example.com'",
        "export ANTHROPIC_AUTH_TOKEN='sk-tg-abc'",
        "export ANTHROPIC_MODEL='claude-sonnet-4-6'",
        "export ANTHROPIC_DEFAULT_HAIKU_MODEL='claude-haiku-4-5'",
        "export ANTHROPIC_DEFAULT_SONNET_MODEL='claude-sonnet-4-6'",
        "export ANTHROPIC_DEFAULT_OPUS_MODEL='claude-opus-4-6'",
        "export CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC='1'",
        '',
      ].join('\n'),
    );
    expect(claude.shell.powershell.split('\n')[1]).toBe("$env:ANTHROPIC_AUTH_TOKEN = 'sk-tg-abc'");
    expect(claude.tryCommand).toBe('claude -p "say hi"');
  });

  it('Claude Code (Antigravity): the base URL keeps the /antigravity prefix', () => {
    const claude = tool('Antigravity', 'claude-code');
    expect(claude.env.slice(0, 3)).toEqual([
      { name: 'ANTHROPIC_BASE_URL', value: 'https://gw.example.com/antigravity' },
      { name: 'ANTHROPIC_AUTH_TOKEN', value: 'sk-tg-abc' },
      { name: 'ANTHROPIC_MODEL', value: 'claude-sonnet-4-6' },
    ]);
  });

  it('Codex CLI: config.toml with a responses provider at /v1 and the key from the environment', () => {
    const codex = tool('OpenAI', 'codex');
    expect(codex.files).toEqual([
      {
        path: '~/.codex/config.toml',
        language: 'toml',
        content: `model = "gpt-5.5"
model_provider = "tollgate"

[analytics]
enabled = false

[features]
plugins = false

[model_providers.tollgate]
name = "Tollgate"
base_url = "https://gw.example.com/v1"
wire_api = "responses"
env_key = "TOLLGATE_API_KEY"
`,
        // The file names the variable; the variable holds the key: both are needed.
        role: 'required',
      },
    ]);
    expect(codex.env).toEqual([{ name: 'TOLLGATE_API_KEY', value: 'sk-tg-abc' }]);
    expect(codex.files[0]?.content).not.toContain('sk-tg-abc');
  });

  it('Gemini CLI: .env without /v1beta and settings.json pinning the API-key auth type', () => {
    const gemini = tool('Gemini', 'gemini-cli');
    expect(gemini.files).toEqual([
      {
        path: '~/.gemini/.env',
        language: 'dotenv',
        content:
          'GOOGLE_GEMINI_BASE_URL="https://gw.example.com"\nGEMINI_API_KEY="sk-tg-abc"\n' +
          'GEMINI_MODEL="gemini-2.5-flash"\n',
        role: 'instead-of-environment',
      },
      {
        path: '~/.gemini/settings.json',
        language: 'json',
        content: `{
  "security": {
    "auth": {
      "selectedType": "gemini-api-key"
    }
  },
  "privacy": {
    "usageStatisticsEnabled": false
  }
}
`,
        role: 'required',
      },
    ]);
    const antigravity = tool('Antigravity', 'gemini-cli');
    expect(antigravity.env).toEqual([
      { name: 'GOOGLE_GEMINI_BASE_URL', value: 'https://gw.example.com/antigravity' },
      { name: 'GEMINI_API_KEY', value: 'sk-tg-abc' },
      { name: 'GEMINI_MODEL', value: 'gemini-2.5-flash' },
    ]);
  });

  const opencodeTable: { platform: Platform; npm: string; baseURL: string; model: string }[] = [
    {
      platform: 'Anthropic',
      npm: '@ai-sdk/anthropic',
      baseURL: 'https://gw.example.com/v1',
      model: 'claude-sonnet-4-6',
    },
    {
      platform: 'OpenAI',
      npm: '@ai-sdk/openai',
      baseURL: 'https://gw.example.com/v1',
      model: 'gpt-5.5',
    },
    {
      platform: 'Gemini',
      npm: '@ai-sdk/google',
      baseURL: 'https://gw.example.com/v1beta',
      model: 'gemini-2.5-flash',
    },
    {
      platform: 'Antigravity',
      npm: '@ai-sdk/anthropic',
      baseURL: 'https://gw.example.com/antigravity/v1',
      model: 'claude-sonnet-4-6',
    },
  ];
  it.each(opencodeTable)('OpenCode ($platform): provider block with $npm', (row) => {
    const opencode = tool(row.platform, 'opencode');
    expect(opencode.files.map((f) => [f.path, f.language])).toEqual([
      ['~/.config/opencode/opencode.json', 'json'],
    ]);
    expect(JSON.parse(opencode.files[0]?.content ?? '')).toEqual({
      $schema: 'https://opencode.ai/config.json',
      model: `tollgate/${row.model}`,
      provider: {
        tollgate: {
          npm: row.npm,
          name: 'Tollgate',
          options: { baseURL: row.baseURL, apiKey: '{env:TOLLGATE_API_KEY}' },
          models: { [row.model]: { name: row.model } },
        },
      },
    });
    expect(opencode.env).toEqual([{ name: 'TOLLGATE_API_KEY', value: 'sk-tg-abc' }]);
    expect(opencode.tryCommand).toBe(`opencode run -m tollgate/${row.model} "say hi"`);
  });

  it('takes the caller model names over the defaults', () => {
    const config = generateClientConfig({
      ...base,
      platform: 'OpenAI',
      models: { main: 'gpt-5.1-codex', haiku: ' ' },
    });
    expect(config.tools[0]?.files[0]?.content).toContain('model = "gpt-5.1-codex"');
    expect(config.tools[1]?.tryCommand).toBe('opencode run -m tollgate/gpt-5.1-codex "say hi"');
  });
});

describe('generateClientConfig: the CC Switch import link', () => {
  const script = TOLLGATE_USAGE_SCRIPT;
  const usage = {
    usageScript: script,
    usageEnabled: 'true',
    usageAutoInterval: '5',
  };
  const table: { platform: Platform; tool: string; expected: Record<string, string> }[] = [
    {
      platform: 'Anthropic',
      tool: 'claude-code',
      expected: {
        resource: 'provider',
        app: 'claude',
        name: 'alice',
        endpoint: 'https://gw.example.com',
        apiKey: 'sk-tg-abc',
        homepage: 'https://console.example.com',
        model: 'claude-sonnet-4-6',
        haikuModel: 'claude-haiku-4-5',
        sonnetModel: 'claude-sonnet-4-6',
        opusModel: 'claude-opus-4-6',
        config: '{"env":{"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC":"1"}}',
        configFormat: 'json',
        usageBaseUrl: 'https://gw.example.com',
        ...usage,
      },
    },
    {
      platform: 'OpenAI',
      tool: 'codex',
      expected: {
        resource: 'provider',
        app: 'codex',
        name: 'alice',
        endpoint: 'https://gw.example.com/v1',
        apiKey: 'sk-tg-abc',
        homepage: 'https://console.example.com',
        model: 'gpt-5.5',
        usageBaseUrl: 'https://gw.example.com',
        ...usage,
      },
    },
    {
      platform: 'OpenAI',
      tool: 'opencode',
      expected: {
        resource: 'provider',
        app: 'opencode',
        name: 'alice',
        endpoint: 'https://gw.example.com/v1',
        apiKey: 'sk-tg-abc',
        homepage: 'https://console.example.com',
        model: 'gpt-5.5',
        usageBaseUrl: 'https://gw.example.com',
        ...usage,
      },
    },
    {
      platform: 'Gemini',
      tool: 'gemini-cli',
      expected: {
        resource: 'provider',
        app: 'gemini',
        name: 'alice',
        endpoint: 'https://gw.example.com',
        apiKey: 'sk-tg-abc',
        homepage: 'https://console.example.com',
        model: 'gemini-2.5-flash',
        usageBaseUrl: 'https://gw.example.com',
        ...usage,
      },
    },
    {
      platform: 'Antigravity',
      tool: 'claude-code',
      expected: {
        resource: 'provider',
        app: 'claude',
        name: 'alice',
        endpoint: 'https://gw.example.com/antigravity',
        apiKey: 'sk-tg-abc',
        homepage: 'https://console.example.com',
        model: 'claude-sonnet-4-6',
        sonnetModel: 'claude-sonnet-4-6',
        opusModel: 'claude-opus-4-6-thinking',
        config: '{"env":{"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC":"1"}}',
        configFormat: 'json',
        usageBaseUrl: 'https://gw.example.com/antigravity',
        ...usage,
      },
    },
    {
      platform: 'Antigravity',
      tool: 'gemini-cli',
      expected: {
        resource: 'provider',
        app: 'gemini',
        name: 'alice',
        endpoint: 'https://gw.example.com/antigravity',
        apiKey: 'sk-tg-abc',
        homepage: 'https://console.example.com',
        model: 'gemini-2.5-flash',
        usageBaseUrl: 'https://gw.example.com/antigravity',
        ...usage,
      },
    },
  ];
  it.each(table)('$platform $tool', (row) => {
    const params = linkParams(tool(row.platform, row.tool).ccSwitchLink);
    const decoded: Record<string, string> = {
      ...params,
      usageScript: decode(params.usageScript),
    };
    if (params.config !== undefined) decoded.config = decode(params.config);
    expect(decoded).toEqual(row.expected);
  });

  it('makes no OpenCode link for platforms CC Switch cannot express (openai-compatible only)', () => {
    for (const platform of ['Anthropic', 'Gemini', 'Antigravity'] as const) {
      expect(tool(platform, 'opencode').ccSwitchLink).toBeNull();
    }
  });

  it('carries the console address as homepage, and none when it is not known', () => {
    expect(linkParams(tool('OpenAI', 'codex').ccSwitchLink).homepage).toBe(
      'https://console.example.com',
    );
    const unknown = generateClientConfig({ ...base, consoleUrl: undefined, platform: 'OpenAI' });
    expect(linkParams(unknown.tools[0]?.ccSwitchLink ?? null).homepage).toBeUndefined();
  });

  it('survives any name: URLSearchParams encoding round-trips', () => {
    const name = 'équipe a & b=c+d';
    const config = generateClientConfig({ ...base, keyName: name, platform: 'Gemini' });
    expect(linkParams(config.tools[0]?.ccSwitchLink ?? null).name).toBe(name);
  });
});

describe('generateClientConfig: without a key value', () => {
  it('writes the placeholder everywhere the key goes, the CC Switch links included', () => {
    for (const platform of ['Anthropic', 'OpenAI', 'Gemini', 'Antigravity'] as const) {
      const config = generateClientConfig({ ...base, keyValue: null, platform });
      const text = JSON.stringify(config);
      expect(text).not.toContain('sk-tg-abc');
      expect(config.keyIncluded).toBe(false);
      expect(config.checkCommand).toContain(KEY_PLACEHOLDER);
      for (const t of config.tools) {
        if (t.ccSwitchLink !== null)
          expect(linkParams(t.ccSwitchLink).apiKey).toBe(KEY_PLACEHOLDER);
        expect(t.env.some((v) => v.value === KEY_PLACEHOLDER)).toBe(true);
      }
    }
    expect(generateClientConfig({ ...base, platform: 'OpenAI' }).keyIncluded).toBe(true);
  });

  it('quotes the Gemini .env value and its placeholder alike', () => {
    const dotenv = (keyValue: string | null) =>
      generateClientConfig({ ...base, keyValue, platform: 'Gemini' }).tools[0]?.files[0]?.content;
    expect(dotenv(null)).toContain(`GEMINI_API_KEY="${KEY_PLACEHOLDER}"\n`);
    expect(dotenv('sk-tg-abc')).toContain('GEMINI_API_KEY="sk-tg-abc"\n');
  });
});

describe('generateClientConfig: which blocks are needed', () => {
  it('marks the files every setup needs and those that stand for the environment variables', () => {
    const roles = (platform: Platform, name: string) =>
      tool(platform, name).files.map((file) => [file.path, file.role]);
    expect(roles('Anthropic', 'claude-code')).toEqual([
      ['~/.claude/settings.json', 'instead-of-environment'],
    ]);
    expect(roles('OpenAI', 'codex')).toEqual([['~/.codex/config.toml', 'required']]);
    expect(roles('Gemini', 'gemini-cli')).toEqual([
      ['~/.gemini/.env', 'instead-of-environment'],
      ['~/.gemini/settings.json', 'required'],
    ]);
    expect(roles('OpenAI', 'opencode')).toEqual([['~/.config/opencode/opencode.json', 'required']]);
  });
});

describe('generateClientConfig: CC Switch usage display needs HTTPS off this machine', () => {
  const table: { gatewayUrl: string; needsHttps: boolean }[] = [
    { gatewayUrl: 'https://gw.example.com', needsHttps: false },
    { gatewayUrl: 'http://gw.example.com', needsHttps: true },
    { gatewayUrl: 'http://10.0.0.5:8080', needsHttps: true },
    { gatewayUrl: 'http://localhost:8080', needsHttps: false },
    { gatewayUrl: 'http://127.0.0.1:8080/', needsHttps: false },
    { gatewayUrl: 'http://[::1]:8080', needsHttps: false },
    { gatewayUrl: 'https://127.0.0.1', needsHttps: false },
  ];
  it.each(table)('$gatewayUrl → $needsHttps', ({ gatewayUrl, needsHttps }) => {
    const config = generateClientConfig({ ...base, gatewayUrl, platform: 'Anthropic' });
    expect(config.usageDisplayNeedsHttps).toBe(needsHttps);
  });
});

describe('generateClientConfig: shell snippets', () => {
  it('a key with quotes, spaces and $ survives a POSIX shell unchanged', () => {
    const keyValue = `it's a $HOME "key" \`x\``;
    const claude = generateClientConfig({ ...base, keyValue, platform: 'Anthropic' }).tools[0];
    const script = `${claude?.shell.posix ?? ''}printf %s "$ANTHROPIC_AUTH_TOKEN"`;
    expect(execFileSync('sh', ['-c', script], { encoding: 'utf8' })).toBe(keyValue);
  });
});

describe('the CC Switch usage script', () => {
  type Extract = (response: unknown) => Record<string, unknown>;
  // CC Switch evaluates the script as an expression in a sandbox, as here.
  const evaluated = runInNewContext(TOLLGATE_USAGE_SCRIPT) as {
    request: { url: string; method: string; headers: Record<string, string> };
    extractor: Extract;
  };

  it('asks GET {{baseUrl}}/v1/usage with the provider key as Bearer', () => {
    expect(evaluated.request).toEqual({
      url: '{{baseUrl}}/v1/usage',
      method: 'GET',
      headers: { Authorization: 'Bearer {{apiKey}}' },
    });
  });

  it('maps a usage answer to CC Switch fields, leaving out remaining and total when unlimited', () => {
    const answer = {
      object: 'usage',
      key: { name: 'alice', namespace: 'team-a', group: 'anthropic', platform: 'Anthropic' },
      quota: { limit: 10, used: 1.5, reserved: 0, remaining: 8.5 },
      today: { used: 0.25 },
      total: { used: 1.5 },
    };
    expect(evaluated.extractor(answer)).toEqual({
      isValid: true,
      planName: 'anthropic',
      used: 1.5,
      remaining: 8.5,
      total: 10,
      unit: 'USD',
      extra: 'today $0.25, total $1.50',
    });
    const unlimited = {
      ...answer,
      quota: { limit: null, used: 1.5, reserved: 0, remaining: null },
    };
    const result = evaluated.extractor(unlimited);
    expect('remaining' in result || 'total' in result).toBe(false);
    expect(evaluated.extractor({ error: { message: '[TG_KEY_UNKNOWN] Unknown key' } })).toEqual({
      isValid: false,
      invalidMessage: '[TG_KEY_UNKNOWN] Unknown key',
    });
  });
});
