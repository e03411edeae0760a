import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSts, type FakeSts } from '../../../test/support/fake-aws-sts.js';
import { readAssumeRoleReply, stsEndpointFor } from './assume-role-with-web-identity.js';
import { AwsCredentialCache } from './cache-aws-credentials.js';

const roleARN = 'arn:aws:iam::123456789012:role/bedrock';
const folder = mkdtempSync(join(tmpdir(), 'sts-'));
const tokenFile = join(folder, 'token');
writeFileSync(tokenFile, 'the-token');
const settings = { type: 'AWSWebIdentity' as const, roleARN, tokenFile };

let sts: FakeSts;
beforeAll(async () => {
  sts = await startFakeSts({
    roleARN,
    token: 'the-token',
    lifetimeMs: 3_600_000,
    onIssue: () => undefined,
    delayMs: 30,
  });
});
afterAll(() => sts.close());

describe('AwsCredentialCache', () => {
  it('shares one STS call, reuses the credentials, and refreshes them before they expire', async () => {
    let now = Date.now();
    const cache = new AwsCredentialCache({ clock: () => now, stsEndpoint: sts.url });
    const before = sts.calls;
    const first = await Promise.all([1, 2, 3].map(() => cache.credentials(settings, 'us-east-1')));
    expect(sts.calls).toBe(before + 1);
    expect(new Set(first.map((c) => c.accessKeyId)).size).toBe(1);
    expect(first[0]?.sessionToken).toBe(sts.issued.at(-1)?.sessionToken);
    now += 50 * 60_000;
    await cache.credentials(settings, 'us-east-1');
    expect(sts.calls).toBe(before + 1);
    now += 6 * 60_000; // within five minutes of the expiry
    const renewed = await cache.credentials(settings, 'us-east-1');
    expect(sts.calls).toBe(before + 2);
    expect(renewed.accessKeyId).not.toBe(first[0]?.accessKeyId);
    cache.forget(settings, 'us-east-1');
    await cache.credentials(settings, 'us-east-1');
    expect(sts.calls).toBe(before + 3);
  });

  it('passes static keys through', async () => {
    const cache = new AwsCredentialCache({ clock: Date.now, stsEndpoint: sts.url });
    const keys = {
      type: 'AWSAccessKey' as const,
      accessKeyId: 'a',
      secretAccessKey: 'b',
      sessionToken: null,
    };
    await expect(cache.credentials(keys, 'us-east-1')).resolves.toEqual({
      accessKeyId: 'a',
      secretAccessKey: 'b',
      sessionToken: null,
    });
  });

  it('fails with TG_UPSTREAM_AUTH_FAILED for a refused token, a missing file and no STS', async () => {
    const cache = new AwsCredentialCache({ clock: Date.now, stsEndpoint: sts.url });
    const wrongFile = join(folder, 'wrong');
    writeFileSync(wrongFile, 'another-token');
    await expect(
      cache.credentials({ ...settings, tokenFile: wrongFile }, 'us-east-1'),
    ).rejects.toMatchObject({
      code: 'TG_UPSTREAM_AUTH_FAILED',
      message: expect.stringContaining('InvalidIdentityToken') as string,
    });
    await expect(
      cache.credentials({ ...settings, tokenFile: join(folder, 'none') }, 'us-east-1'),
    ).rejects.toMatchObject({
      code: 'TG_UPSTREAM_AUTH_FAILED',
    });
    const unreachable = new AwsCredentialCache({
      clock: Date.now,
      stsEndpoint: 'http://127.0.0.1:1',
      timeoutMs: 2000,
    });
    await expect(unreachable.credentials(settings, 'us-east-1')).rejects.toMatchObject({
      code: 'TG_UPSTREAM_AUTH_FAILED',
    });
  });

  it('reads the STS reply and picks the endpoint', () => {
    expect(readAssumeRoleReply('<AccessKeyId>A</AccessKeyId>')).toBeNull();
    expect(
      readAssumeRoleReply(
        '<Credentials><SessionToken>t&amp;x</SessionToken><SecretAccessKey>s</SecretAccessKey>' +
          '<Expiration>2026-01-01T01:00:00Z</Expiration><AccessKeyId>A</AccessKeyId></Credentials>',
      ),
    ).toEqual({
      accessKeyId: 'A',
      secretAccessKey: 's',
      sessionToken: 't&x',
      expiresAt: Date.parse('2026-01-01T01:00:00Z'),
    });
    expect(stsEndpointFor('eu-west-1', null)).toBe('https://sts.eu-west-1.amazonaws.com');
    expect(stsEndpointFor('eu-west-1', 'http://localhost:9/')).toBe('http://localhost:9');
  });
});
