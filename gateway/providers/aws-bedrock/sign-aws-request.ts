/**
 * AWS Signature Version 4 for one request (pure; node:crypto only): the canonical request, the
 * string to sign, the signing key and the `authorization` header, as AWS documents them for
 * services other than S3 (each path segment URI-encoded twice). Adds `x-amz-date`,
 * `x-amz-content-sha256` and, for temporary credentials, `x-amz-security-token`; signs `host` and
 * every header it is given. Secrets never leave this function except inside the signature.
 */
import { createHash, createHmac } from 'node:crypto';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string | null;
}

export interface SignRequestInput {
  method: string;
  /** scheme://host[:port] the request goes to; its host (with a non-default port) is signed. */
  origin: string;
  /** Path as sent (already URI-encoded once), optionally with a query. */
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  region: string;
  service: string;
  credentials: AwsCredentials;
  now: Date;
  /** Derived signing keys kept between calls (they change once a day per key and region). */
  signingKeys?: SigningKeyCache;
}

const sha256Hex = (data: string | Buffer): string =>
  createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string): Buffer =>
  createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 encoding as SigV4 wants it (`encodeURIComponent` leaves `!'()*` alone). */
function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** `20260102T030405Z` */
export function formatAmzDate(now: Date): string {
  return now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** Each segment decoded once and encoded, then encoded again (the non-S3 rule). */
function canonicalUri(path: string): string {
  if (path === '' || path === '/') return '/';
  return path
    .split('/')
    .map((segment) => encodeRfc3986(encodeRfc3986(decodeURIComponent(segment))))
    .join('/');
}

function canonicalQuery(query: string): string {
  if (query === '') return '';
  const pairs = query.split('&').map((pair) => {
    const equals = pair.indexOf('=');
    const name = equals === -1 ? pair : pair.slice(0, equals);
    const value = equals === -1 ? '' : pair.slice(equals + 1);
    const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
    return [encodeRfc3986(decode(name)), encodeRfc3986(decode(value))] as const;
  });
  pairs.sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1));
  return pairs.map(([name, value]) => `${name}=${value}`).join('&');
}

export function deriveSigningKey(
  secretAccessKey: string,
  scope: { date: string; region: string; service: string },
): Buffer {
  const dateKey = hmac(`AWS4${secretAccessKey}`, scope.date);
  const regionKey = hmac(dateKey, scope.region);
  const serviceKey = hmac(regionKey, scope.service);
  return hmac(serviceKey, 'aws4_request');
}

/** Signing keys by secret, date, region and service; bounded (cleared when full). */
export class SigningKeyCache {
  readonly #keys = new Map<string, Buffer>();

  get(secretAccessKey: string, scope: { date: string; region: string; service: string }): Buffer {
    const id = `${scope.date}/${scope.region}/${scope.service}/${secretAccessKey}`;
    const cached = this.#keys.get(id);
    if (cached !== undefined) return cached;
    if (this.#keys.size >= 256) this.#keys.clear();
    const key = deriveSigningKey(secretAccessKey, scope);
    this.#keys.set(id, key);
    return key;
  }
}

/** The headers to send: the given ones plus the signing headers and `authorization`. */
export function signAwsRequest(input: SignRequestInput): Record<string, string> {
  const amzDate = formatAmzDate(input.now);
  const date = amzDate.slice(0, 8);
  const payloadHash = sha256Hex(input.body);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers)) headers[name.toLowerCase()] = value;
  headers['x-amz-date'] = amzDate;
  headers['x-amz-content-sha256'] = payloadHash;
  if (input.credentials.sessionToken !== null) {
    headers['x-amz-security-token'] = input.credentials.sessionToken;
  }
  const signed: Record<string, string> = { ...headers, host: new URL(input.origin).host };
  const names = Object.keys(signed).sort();
  const canonicalHeaders = names
    .map((name) => `${name}:${(signed[name] ?? '').trim().replace(/\s+/g, ' ')}\n`)
    .join('');
  const signedHeaders = names.join(';');
  const question = input.path.indexOf('?');
  const pathOnly = question === -1 ? input.path : input.path.slice(0, question);
  const query = question === -1 ? '' : input.path.slice(question + 1);
  const canonicalRequest = [
    input.method.toUpperCase(),
    canonicalUri(pathOnly),
    canonicalQuery(query),
    canonicalHeaders,
    signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${date}/${input.region}/${input.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const keyScope = { date, region: input.region, service: input.service };
  const key =
    input.signingKeys?.get(input.credentials.secretAccessKey, keyScope) ??
    deriveSigningKey(input.credentials.secretAccessKey, keyScope);
  const signature = createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex');
  headers.authorization =
    `AWS4-HMAC-SHA256 Credential=${input.credentials.accessKeyId}/${scope}, ` +
    `SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return headers;
}
