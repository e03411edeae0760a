/**
 * A self-signed serving certificate (ECDSA P-256) for the local API, built as DER by hand because
 * node:crypto cannot issue certificates. kubectl only sends bearer tokens over TLS, so the API
 * needs HTTPS; the kubeconfig carries this certificate as its CA.
 */
import {
  createPrivateKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  X509Certificate,
} from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import { join } from 'node:path';
import { writeFileAtomically } from './write-files-durably.js';

function length(size: number): Buffer {
  if (size < 0x80) return Buffer.from([size]);
  const bytes: number[] = [];
  for (let rest = size; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...parts: Buffer[]): Buffer {
  const content = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag]), length(content.length), content]);
}

const sequence = (...parts: Buffer[]): Buffer => tlv(0x30, ...parts);

function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const value of rest) {
    const chunk: number[] = [];
    for (let v = value; ; v = Math.floor(v / 128)) {
      chunk.unshift((v % 128) | (chunk.length === 0 ? 0 : 0x80));
      if (v < 128) break;
    }
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

function utcTime(date: Date): Buffer {
  const text = date.toISOString().replace(/[-:T]/g, '').slice(2, 14) + 'Z';
  return tlv(0x17, Buffer.from(text, 'ascii'));
}

function name(commonName: string): Buffer {
  return sequence(tlv(0x31, sequence(oid('2.5.4.3'), tlv(0x0c, Buffer.from(commonName)))));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  const flag = critical ? [tlv(0x01, Buffer.from([0xff]))] : [];
  return sequence(oid(id), ...flag, tlv(0x04, value));
}

function subjectAltNames(host: string): Buffer {
  const addresses = new Set(['127.0.0.1']);
  if (isIPv4(host) && host !== '0.0.0.0') addresses.add(host);
  const entries = [tlv(0x82, Buffer.from('localhost'))];
  for (const address of addresses)
    entries.push(tlv(0x87, Buffer.from(address.split('.').map(Number))));
  entries.push(tlv(0x87, Buffer.from([...new Array<number>(15).fill(0), 1])));
  return sequence(...entries);
}

export function issueCertificate(host: string): { certificate: string; key: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const algorithm = sequence(oid('1.2.840.10045.4.3.2'));
  const now = Date.now();
  const serial = randomBytes(16);
  // A DER INTEGER is positive and minimal: first byte neither 0x00 (padding) nor >= 0x80 (sign).
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x40;
  const tbs = sequence(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))),
    tlv(0x02, serial),
    algorithm,
    name('tollgate-local'),
    sequence(utcTime(new Date(now - 3_600_000)), utcTime(new Date(now + 10 * 365 * 86_400_000))),
    name('tollgate-local'),
    publicKey.export({ type: 'spki', format: 'der' }),
    tlv(
      0xa3,
      sequence(
        extension('2.5.29.19', true, sequence(tlv(0x01, Buffer.from([0xff])))),
        extension('2.5.29.15', true, tlv(0x03, Buffer.from([0x02, 0x84]))),
        extension('2.5.29.17', false, subjectAltNames(host)),
      ),
    ),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = sequence(tbs, algorithm, tlv(0x03, Buffer.from([0]), signature));
  const body = der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trim();
  return {
    certificate: `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`,
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** Loads `<data>/tls.crt` and `tls.key`, issuing them on first start. */
export function loadOrCreateCertificate(
  dataDirectory: string,
  host: string,
): { certificate: string; key: string } {
  const certificatePath = join(dataDirectory, 'tls.crt');
  const keyPath = join(dataDirectory, 'tls.key');
  if (existsSync(certificatePath) && existsSync(keyPath)) {
    const certificate = readFileSync(certificatePath, 'utf8');
    const key = readFileSync(keyPath, 'utf8');
    const parsed = new X509Certificate(certificate);
    const coversHost = !isIPv4(host) || host === '0.0.0.0' || parsed.checkIP(host) !== undefined;
    const valid = Date.parse(parsed.validTo) > Date.now() + 86_400_000;
    if (coversHost && valid && parsed.checkPrivateKey(createPrivateKey(key))) {
      return { certificate, key };
    }
  }
  const issued = issueCertificate(host);
  writeFileAtomically(keyPath, issued.key);
  writeFileAtomically(certificatePath, issued.certificate);
  return issued;
}
