import { generateKeyPairSync, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../../errors/gateway-error.js';
import {
  CLOUD_PLATFORM_SCOPE,
  DEFAULT_TOKEN_URI,
  jwtBearerGrantForm,
  parseServiceAccountKey,
  signServiceAccountAssertion,
} from './sign-service-account-assertion.js';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const keyJson = JSON.stringify({
  type: 'service_account',
  project_id: 'p',
  private_key_id: 'abc123',
  private_key: pem,
  client_email: 'gw@p.iam.gserviceaccount.com',
  token_uri: 'https://token.example/token',
});

function decode(part: string | undefined): Record<string, unknown> {
  return JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

describe('the service account JWT', () => {
  it('is RS256, signed by the key, with the claims Google checks', () => {
    const jwt = signServiceAccountAssertion(parseServiceAccountKey(keyJson), 1_700_000_000);
    const [header, claims, signature] = jwt.split('.');
    expect(decode(header)).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'abc123' });
    expect(decode(claims)).toEqual({
      iss: 'gw@p.iam.gserviceaccount.com',
      sub: 'gw@p.iam.gserviceaccount.com',
      aud: 'https://token.example/token',
      scope: CLOUD_PLATFORM_SCOPE,
      iat: 1_700_000_000,
      exp: 1_700_003_600,
    });
    const signed = Buffer.from(`${header ?? ''}.${claims ?? ''}`);
    expect(verify('RSA-SHA256', signed, publicKey, Buffer.from(signature ?? '', 'base64url'))).toBe(
      true,
    );
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
    expect(verify('RSA-SHA256', signed, other, Buffer.from(signature ?? '', 'base64url'))).toBe(
      false,
    );
  });

  it('goes to Google’s token address when the key names none, and has no kid without an id', () => {
    const key = parseServiceAccountKey(
      JSON.stringify({ client_email: 'a@b.iam.gserviceaccount.com', private_key: pem }),
    );
    expect(key.tokenUri).toBe(DEFAULT_TOKEN_URI);
    const [header, claims] = signServiceAccountAssertion(key, 10).split('.');
    expect(decode(header)).toEqual({ alg: 'RS256', typ: 'JWT' });
    expect(decode(claims).aud).toBe(DEFAULT_TOKEN_URI);
  });

  it('is sent as the jwt-bearer grant form', () => {
    const form = new URLSearchParams(jwtBearerGrantForm('a.b.c'));
    expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    expect(form.get('assertion')).toBe('a.b.c');
  });

  it.each([
    ['not JSON', '{'],
    ['no client_email', JSON.stringify({ private_key: pem })],
    ['no private_key', JSON.stringify({ client_email: 'a@b' })],
    ['an unreadable private_key', JSON.stringify({ client_email: 'a@b', private_key: 'nope' })],
  ])('refuses a key that is %s (TG_UPSTREAM_AUTH_FAILED)', (_name, json) => {
    let thrown: unknown;
    try {
      parseServiceAccountKey(json);
    } catch (error) {
      thrown = error;
    }
    expect(isGatewayError(thrown) && thrown.code).toBe('TG_UPSTREAM_AUTH_FAILED');
    // The key's material never appears in the message.
    expect((thrown as Error).message).not.toContain('PRIVATE KEY');
  });
});
