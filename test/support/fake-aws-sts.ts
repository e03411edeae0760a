/**
 * A fake AWS STS for web identity tests: a real HTTP server answering the query API's
 * AssumeRoleWithWebIdentity (form POST, unsigned) with the XML reply AWS sends, when the role ARN
 * and the web identity token are the expected ones; each issue creates fresh temporary
 * credentials (handed to `onIssue`, e.g. the fake Bedrock's `accept`) expiring after `lifetimeMs`.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeAwsCredentials } from './fake-bedrock-wire.js';

export interface FakeStsOptions {
  roleARN: string;
  token: string;
  lifetimeMs: number;
  onIssue: (credentials: FakeAwsCredentials) => void;
  /** Answer each call after this many ms (to overlap concurrent callers). Default 0. */
  delayMs?: number;
}

export interface FakeSts {
  url: string;
  /** AssumeRoleWithWebIdentity calls answered (with credentials or an error). */
  calls: number;
  issued: FakeAwsCredentials[];
  close(): Promise<void>;
}

function errorXml(code: string, message: string): string {
  return (
    '<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type>' +
    `<Code>${code}</Code><Message>${message}</Message></Error>` +
    '<RequestId>fake</RequestId></ErrorResponse>'
  );
}

function replyXml(credentials: FakeAwsCredentials, expiration: string, roleARN: string): string {
  return (
    '<AssumeRoleWithWebIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">' +
    '<AssumeRoleWithWebIdentityResult>' +
    '<SubjectFromWebIdentityToken>system:serviceaccount:tollgate:gateway</SubjectFromWebIdentityToken>' +
    `<AssumedRoleUser><Arn>${roleARN}/tollgate-gateway</Arn><AssumedRoleId>AROAFAKE:tollgate-gateway</AssumedRoleId></AssumedRoleUser>` +
    `<Credentials><SessionToken>${credentials.sessionToken ?? ''}</SessionToken>` +
    `<SecretAccessKey>${credentials.secretAccessKey}</SecretAccessKey>` +
    `<Expiration>${expiration}</Expiration>` +
    `<AccessKeyId>${credentials.accessKeyId}</AccessKeyId></Credentials>` +
    '<Provider>arn:aws:iam::123456789012:oidc-provider/oidc.eks.example</Provider>' +
    '<Audience>sts.amazonaws.com</Audience></AssumeRoleWithWebIdentityResult>' +
    '<ResponseMetadata><RequestId>fake</RequestId></ResponseMetadata>' +
    '</AssumeRoleWithWebIdentityResponse>'
  );
}

export async function startFakeSts(options: FakeStsOptions): Promise<FakeSts> {
  const state = { calls: 0, issued: [] as FakeAwsCredentials[] };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const answer = () => {
        state.calls += 1;
        response.setHeader('content-type', 'text/xml');
        if (
          form.get('Action') !== 'AssumeRoleWithWebIdentity' ||
          form.get('Version') !== '2011-06-15'
        ) {
          response.writeHead(400).end(errorXml('InvalidAction', 'Could not find operation'));
        } else if (form.get('RoleArn') !== options.roleARN) {
          response
            .writeHead(403)
            .end(
              errorXml('AccessDenied', 'Not authorized to perform sts:AssumeRoleWithWebIdentity'),
            );
        } else if (form.get('WebIdentityToken') !== options.token) {
          response.writeHead(400).end(errorXml('InvalidIdentityToken', 'Incorrect token audience'));
        } else {
          const credentials = {
            accessKeyId: `ASIA${randomBytes(8).toString('hex').toUpperCase()}`,
            secretAccessKey: randomBytes(20).toString('base64'),
            sessionToken: randomBytes(48).toString('base64'),
          };
          state.issued.push(credentials);
          options.onIssue(credentials);
          const expiration = new Date(Date.now() + options.lifetimeMs).toISOString();
          response.writeHead(200).end(replyXml(credentials, expiration, options.roleARN));
        }
      };
      setTimeout(answer, options.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    get calls() {
      return state.calls;
    },
    issued: state.issued,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
