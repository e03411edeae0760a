/**
 * The redaction rules, table-driven: realistic bodies (a `.env` pasted into a prompt, a curl
 * command, a JSON config) and adversarial ones (a secret split across lines, escaped inside JSON
 * text, a JSON document inside a JSON string, look-alikes that are no secrets).
 */
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redact-secrets.js';

const ANTHROPIC = 'sk-ant-api03-Xr7Lm2Qp9Vt4Kw8Nz3Bc6Hd1Jf5Gs0Ay-Tu';
const OPENAI_PROJECT = 'sk-proj-Zq3vN8xR2mK7pL4wT9yB6cH1jD5fG0sA';
const OPENAI_CLASSIC = 'sk-Zq3vN8xR2mK7pL4wT9yB6cH1jD5fG0sAT3BlbkFJ';
const GOOGLE = 'AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q';
const GITHUB = 'ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R';
const GITHUB_PAT = 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz';
const SLACK = 'xoxb-1234567890-0987654321-AbCdEfGhIjKl';
const TOLLGATE = 'sk-tg-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd';
const XAI = 'xai-Zq3vN8xR2mK7pL4wT9yB6cH1jD5fG0sAZq3vN8xR2mK7pL4wT9yB6cH1jD5fG0sAZq3vN8xR2mK7pL4w';
const GROQ = 'gsk_Zq3vN8xR2mK7pL4wT9yB6cH1jD5fG0sAZq3vN8xR2mK7pL4wT9y';
const AWS_ID = 'AKIAIOSFODNN7EXAMPLE';
const AWS_SESSION_ID = 'ASIAZ3EXAMPLEQ7KTR2M';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const PEM = [
  '-----BEGIN RSA PRIVATE KEY-----',
  'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun',
  'VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK',
  '-----END RSA PRIVATE KEY-----',
].join('\n');

interface Case {
  name: string;
  input: string;
  output: string;
  redactions: Record<string, number>;
}

const CASES: Case[] = [
  {
    name: 'provider keys by their shape',
    input: `a ${ANTHROPIC} b ${OPENAI_PROJECT} c ${OPENAI_CLASSIC} d ${GOOGLE} e ${GITHUB} f ${GITHUB_PAT} g ${SLACK} h ${TOLLGATE}`,
    output:
      'a [REDACTED:anthropic-key] b [REDACTED:openai-key] c [REDACTED:openai-key] d [REDACTED:google-api-key] e [REDACTED:github-token] f [REDACTED:github-token] g [REDACTED:slack-token] h [REDACTED:tollgate-key]',
    redactions: {
      'anthropic-key': 1,
      'openai-key': 2,
      'google-api-key': 1,
      'github-token': 2,
      'slack-token': 1,
      'tollgate-key': 1,
    },
  },
  {
    name: 'a .env file: provider keys keep their kind, other secrets are assignments',
    input: `ANTHROPIC_API_KEY=${ANTHROPIC}\nDB_PASSWORD=hunter2\nexport SESSION_SECRET='a b c'\nMAX_TOKENS=4096\nDEBUG=true\n`,
    output:
      "ANTHROPIC_API_KEY=[REDACTED:anthropic-key]\nDB_PASSWORD=[REDACTED:env-assignment]\nexport SESSION_SECRET='[REDACTED:env-assignment]'\nMAX_TOKENS=4096\nDEBUG=true\n",
    redactions: { 'anthropic-key': 1, 'env-assignment': 2 },
  },
  {
    name: 'AWS access key ids and the secret key assignment',
    input: `aws_access_key_id = ${AWS_ID}\naws_secret_access_key = ${AWS_SECRET}\nsession ${AWS_SESSION_ID}`,
    output:
      'aws_access_key_id = [REDACTED:aws-access-key]\naws_secret_access_key = [REDACTED:aws-secret-key]\nsession [REDACTED:aws-access-key]',
    redactions: { 'aws-access-key': 2, 'aws-secret-key': 1 },
  },
  {
    name: 'a bearer token in a curl command',
    input: 'curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc" https://api',
    output: 'curl -H "Authorization: Bearer [REDACTED:bearer-token]" https://api',
    redactions: { 'bearer-token': 1 },
  },
  {
    name: 'xAI and Groq keys by their shape, where a word starts',
    input: `XAI_API_KEY=${XAI}\ngroq ${GROQ}\nglued max${XAI.slice(3)} desk${GROQ.slice(3)}`,
    output: `XAI_API_KEY=[REDACTED:xai-key]\ngroq [REDACTED:groq-key]\nglued max${XAI.slice(3)} desk${GROQ.slice(3)}`,
    redactions: { 'xai-key': 1, 'groq-key': 1 },
  },
  {
    name: 'Basic credentials in an Authorization header, plain and as a JSON member',
    input: `curl -H 'Authorization: Basic dXNlcjpwYXNz' x\n${JSON.stringify({ headers: { authorization: 'basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==' } })}\na basic idea`,
    output: `curl -H 'Authorization: Basic [REDACTED:basic-auth]' x\n${JSON.stringify({ headers: { authorization: 'basic [REDACTED:basic-auth]' } })}\na basic idea`,
    redactions: { 'basic-auth': 2 },
  },
  {
    name: 'short bearer tokens: any in an Authorization header, one with a digit anywhere',
    input: `Authorization: Bearer abc\n${JSON.stringify({ Authorization: 'Bearer xyz' })}\nuse Bearer t0k, the bearer of bad news`,
    output: `Authorization: Bearer [REDACTED:bearer-token]\n${JSON.stringify({ Authorization: 'Bearer [REDACTED:bearer-token]' })}\nuse Bearer [REDACTED:bearer-token], the bearer of bad news`,
    redactions: { 'bearer-token': 3 },
  },
  {
    name: 'PASS and PWD names (a whole part, not a word ending so)',
    input: 'DB_PASS=hunter2\nMYSQL_PWD=s3cret\nsmtp.pass: mail\nPASS=x\nbypass=1\ncompass=north\n',
    output:
      'DB_PASS=[REDACTED:env-assignment]\nMYSQL_PWD=[REDACTED:env-assignment]\nsmtp.pass: [REDACTED:env-assignment]\nPASS=[REDACTED:env-assignment]\nbypass=1\ncompass=north\n',
    redactions: { 'env-assignment': 4 },
  },
  {
    name: 'a private key block across lines',
    input: `key:\n${PEM}\nend`,
    output: 'key:\n[REDACTED:private-key]\nend',
    redactions: { 'private-key': 1 },
  },
  {
    name: 'a private key block inside JSON text (escaped line breaks)',
    input: JSON.stringify({ content: `here:\n${PEM}\nthanks` }),
    output: JSON.stringify({ content: 'here:\n[REDACTED:private-key]\nthanks' }),
    redactions: { 'private-key': 1 },
  },
  {
    name: 'a private key block cut off: redacted to the end of its JSON string',
    input: JSON.stringify({ a: PEM.slice(0, 120), b: 'kept' }),
    output: JSON.stringify({ a: '[REDACTED:private-key]', b: 'kept' }),
    redactions: { 'private-key': 1 },
  },
  {
    name: 'JSON members named as secrets; numbers and token counts are kept',
    input: JSON.stringify({
      api_key: 'plain',
      clientSecret: 'a "quoted" one',
      max_tokens: 5,
      token: 12,
      input_tokens: 3,
    }),
    output: JSON.stringify({
      api_key: '[REDACTED:env-assignment]',
      clientSecret: '[REDACTED:env-assignment]',
      max_tokens: 5,
      token: 12,
      input_tokens: 3,
    }),
    redactions: { 'env-assignment': 2 },
  },
  {
    name: 'a JSON document inside a JSON string (escaped quotes)',
    input: JSON.stringify({ content: JSON.stringify({ password: 'p w', accessToken: 'xyz' }) }),
    output: JSON.stringify({
      content: JSON.stringify({
        password: '[REDACTED:env-assignment]',
        accessToken: '[REDACTED:env-assignment]',
      }),
    }),
    redactions: { 'env-assignment': 2 },
  },
  {
    name: 'a .env pasted into a prompt (JSON text with escaped line breaks)',
    input: JSON.stringify({
      messages: [
        {
          role: 'user',
          content: `fix:\nOPENAI_API_KEY=${OPENAI_PROJECT}\nGITHUB_TOKEN="t0k3n"\nPORT=80`,
        },
      ],
    }),
    output: JSON.stringify({
      messages: [
        {
          role: 'user',
          content:
            'fix:\nOPENAI_API_KEY=[REDACTED:openai-key]\nGITHUB_TOKEN="[REDACTED:env-assignment]"\nPORT=80',
        },
      ],
    }),
    redactions: { 'openai-key': 1, 'env-assignment': 1 },
  },
  {
    name: 'YAML assignments',
    input: 'db:\n  password: hunter\n  api_key: abc\n  user: admin\n',
    output:
      'db:\n  password: [REDACTED:env-assignment]\n  api_key: [REDACTED:env-assignment]\n  user: admin\n',
    redactions: { 'env-assignment': 2 },
  },
  {
    name: 'look-alikes that are no secrets',
    input:
      'The key: idea is simple. sk-short, task-ant-1, AKIAshort, monkeys=3, keyboard=qwerty, max_tokens=100',
    output:
      'The key: idea is simple. sk-short, task-ant-1, AKIAshort, monkeys=3, keyboard=qwerty, max_tokens=100',
    redactions: {},
  },
  {
    name: 'a provider key glued to a word; `sk-` inside words is no OpenAI key',
    input: `prefix${ANTHROPIC} risk-assessment-of-the-project-plan`,
    output: 'prefix[REDACTED:anthropic-key] risk-assessment-of-the-project-plan',
    redactions: { 'anthropic-key': 1 },
  },
];

describe('redactSecrets', () => {
  it.each(CASES)('$name', ({ input, output, redactions }) => {
    const redacted = redactSecrets(input);
    expect(redacted.text).toBe(output);
    expect(Object.fromEntries(redacted.redactions.map(({ kind, count }) => [kind, count]))).toEqual(
      redactions,
    );
  });

  it('keeps every JSON input valid', () => {
    for (const { input } of CASES) {
      if (!input.startsWith('{')) continue;
      expect(() => JSON.parse(redactSecrets(input).text) as unknown).not.toThrow();
    }
  });

  it('is idempotent: a redacted text has nothing left to redact', () => {
    for (const { input } of CASES) {
      const once = redactSecrets(input).text;
      expect(redactSecrets(once)).toEqual({ text: once, redactions: [] });
    }
  });
});
