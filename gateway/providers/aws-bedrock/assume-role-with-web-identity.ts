/**
 * STS AssumeRoleWithWebIdentity, as the AWS SDKs do it for EKS (IRSA): the projected service
 * account token read from its file, sent unsigned as a form POST to STS (the regional endpoint
 * `https://sts.<region>.amazonaws.com`, or the configured `AWS_ENDPOINT_URL_STS`), and the
 * temporary credentials read from the XML reply. Failures are 502 `TG_UPSTREAM_AUTH_FAILED`;
 * the token and the credentials are never logged.
 */
import { readFile } from 'node:fs/promises';
import { request } from 'undici';
import { GatewayError } from '../../errors/gateway-error.js';
import type { AwsCredentials } from './sign-aws-request.js';

export interface WebIdentityCredentials extends AwsCredentials {
  sessionToken: string;
  /** Epoch ms. */
  expiresAt: number;
}

export interface AssumeRoleInput {
  roleARN: string;
  tokenFile: string;
  /** scheme://host[:port] of STS. */
  stsEndpoint: string;
  sessionName: string;
  timeoutMs: number;
}

const maxReplyBytes = 64 * 1024;

function authFailed(detail: string, cause?: unknown): GatewayError {
  return new GatewayError('TG_UPSTREAM_AUTH_FAILED', { detail, cause });
}

/** The text of `<Name>...</Name>` in an STS reply (values are XML-escaped). */
function readElement(xml: string, name: string): string | null {
  const match = new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml);
  if (match?.[1] === undefined) return null;
  return match[1]
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The credentials in an AssumeRoleWithWebIdentity reply; null when it has none. */
export function readAssumeRoleReply(xml: string): WebIdentityCredentials | null {
  const accessKeyId = readElement(xml, 'AccessKeyId');
  const secretAccessKey = readElement(xml, 'SecretAccessKey');
  const sessionToken = readElement(xml, 'SessionToken');
  const expiration = readElement(xml, 'Expiration');
  const expiresAt = expiration === null ? Number.NaN : Date.parse(expiration);
  if (accessKeyId === null || secretAccessKey === null || sessionToken === null) return null;
  if (Number.isNaN(expiresAt)) return null;
  return { accessKeyId, secretAccessKey, sessionToken, expiresAt };
}

/** The STS endpoint for a region: the configured override, else the regional endpoint. */
export function stsEndpointFor(region: string, configured: string | null): string {
  if (configured !== null && configured !== '') return configured.replace(/\/+$/, '');
  return `https://sts.${region}.amazonaws.com`;
}

export async function assumeRoleWithWebIdentity(
  input: AssumeRoleInput,
): Promise<WebIdentityCredentials> {
  let token: string;
  try {
    token = (await readFile(input.tokenFile, 'utf8')).trim();
  } catch (error) {
    throw authFailed('(the web identity token file could not be read)', error);
  }
  if (token === '') throw authFailed('(the web identity token file is empty)');
  const form = new URLSearchParams({
    Action: 'AssumeRoleWithWebIdentity',
    Version: '2011-06-15',
    RoleArn: input.roleARN,
    RoleSessionName: input.sessionName,
    WebIdentityToken: token,
  });
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(`${input.stsEndpoint}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body: form.toString(),
      headersTimeout: input.timeoutMs,
      bodyTimeout: input.timeoutMs,
      signal: AbortSignal.timeout(input.timeoutMs),
      reset: true,
    });
  } catch (error) {
    throw authFailed('(AWS STS could not be reached)', error);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += (chunk as Buffer).length;
    if (size > maxReplyBytes) {
      response.body.destroy();
      throw authFailed('(the AWS STS reply is too large)');
    }
    chunks.push(chunk as Buffer);
  }
  const xml = Buffer.concat(chunks).toString('utf8');
  if (response.statusCode !== 200) {
    const code = readElement(xml, 'Code') ?? 'an error';
    throw authFailed(`(AWS STS answered ${String(response.statusCode)}: ${code})`);
  }
  const credentials = readAssumeRoleReply(xml);
  if (credentials === null) throw authFailed('(the AWS STS reply has no credentials)');
  return credentials;
}
