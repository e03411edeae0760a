import hashNode from '@smithy/hash-node';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import { describe, expect, it } from 'vitest';
import {
  deriveSigningKey,
  formatAmzDate,
  signAwsRequest,
  SigningKeyCache,
  type AwsCredentials,
} from './sign-aws-request.js';

const now = new Date('2026-03-04T05:06:07.890Z');
const keys: AwsCredentials = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  sessionToken: null,
};

function queryOf(params: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    query[name] = values.length === 1 ? (values[0] ?? '') : values;
  }
  return query;
}

/** The same request signed by the AWS SDK's signer. */
async function smithySignature(input: {
  origin: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  credentials: AwsCredentials;
}): Promise<string> {
  const url = new URL(input.path, input.origin);
  const signer = new SignatureV4({
    credentials: {
      accessKeyId: input.credentials.accessKeyId,
      secretAccessKey: input.credentials.secretAccessKey,
      ...(input.credentials.sessionToken === null
        ? {}
        : { sessionToken: input.credentials.sessionToken }),
    },
    region: 'us-east-1',
    service: 'bedrock',
    sha256: hashNode.Hash.bind(null, 'sha256'),
  });
  const signed = await signer.sign(
    new HttpRequest({
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      path: url.pathname,
      query: queryOf(url.searchParams),
      headers: { ...input.headers, host: url.host },
      body: input.body,
    }),
    { signingDate: now },
  );
  return signed.headers.authorization ?? '';
}

describe('signAwsRequest', () => {
  const cases = [
    {
      name: 'a model id with a colon',
      path: '/model/anthropic.claude-sonnet-4-6-v1%3A0/invoke',
      credentials: keys,
    },
    {
      name: 'an inference profile ARN and a session token',
      path: `/model/${encodeURIComponent('arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-6-v1:0')}/invoke-with-response-stream`,
      credentials: { ...keys, sessionToken: 'IQoJb3JpZ2luX2VjEXAMPLE/+=' },
    },
    { name: 'a query', path: '/model/m/invoke?b=2&a=1&a=0&c=x%20y', credentials: keys },
  ];
  for (const testCase of cases) {
    it(`signs as the AWS SDK does: ${testCase.name}`, async () => {
      const body = Buffer.from('{"anthropic_version":"bedrock-2023-05-31","messages":[]}');
      const base = { 'content-type': 'application/json', accept: 'application/json' };
      const origin = 'https://bedrock-runtime.us-east-1.amazonaws.com';
      const headers = signAwsRequest({
        method: 'POST',
        origin,
        path: testCase.path,
        headers: base,
        body,
        region: 'us-east-1',
        service: 'bedrock',
        credentials: testCase.credentials,
        now,
      });
      expect(headers['x-amz-date']).toBe('20260304T050607Z');
      expect(headers['x-amz-security-token']).toBe(testCase.credentials.sessionToken ?? undefined);
      const { authorization, ...sent } = headers;
      expect(authorization).toBe(
        await smithySignature({
          origin,
          path: testCase.path,
          headers: sent,
          body,
          credentials: testCase.credentials,
        }),
      );
    });
  }

  it('signs a non-default port as part of the host', async () => {
    const body = Buffer.from('{}');
    const origin = 'http://127.0.0.1:4567';
    const headers = signAwsRequest({
      method: 'POST',
      origin,
      path: '/model/m/invoke',
      headers: {},
      body,
      region: 'us-east-1',
      service: 'bedrock',
      credentials: keys,
      now,
    });
    const { authorization, ...sent } = headers;
    expect(authorization).toBe(
      await smithySignature({
        origin,
        path: '/model/m/invoke',
        headers: sent,
        body,
        credentials: keys,
      }),
    );
  });

  it('derives the signing key of the AWS documentation example', () => {
    // docs.aws.amazon.com "Examples of how to derive a signing key for Signature Version 4".
    const key = deriveSigningKey('wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', {
      date: '20120215',
      region: 'us-east-1',
      service: 'iam',
    });
    expect(key.toString('hex')).toBe(
      'f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d',
    );
    expect(formatAmzDate(new Date('2012-02-15T00:00:00Z'))).toBe('20120215T000000Z');
    const cache = new SigningKeyCache();
    const scope = { date: '20120215', region: 'us-east-1', service: 'iam' };
    const first = cache.get('wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', scope);
    expect(first).toEqual(key);
    expect(cache.get('wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', scope)).toBe(first);
    expect(
      cache.get('wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', { ...scope, date: '20120216' }),
    ).not.toEqual(key);
  });
});
