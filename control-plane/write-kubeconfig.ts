/** The bearer token (generated once into the data folder) and `<data>/kubeconfig` pointing at it. */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { writeFileAtomically } from './write-files-durably.js';

export function loadOrCreateToken(dataDirectory: string): string {
  const path = join(dataDirectory, 'token');
  if (existsSync(path)) {
    const token = readFileSync(path, 'utf8').trim();
    if (token !== '') return token;
  }
  const token = randomBytes(32).toString('base64url');
  writeFileAtomically(path, `${token}\n`);
  return token;
}

export function writeKubeconfig(
  dataDirectory: string,
  access: { server: string; token: string; certificateAuthority: string },
): string {
  const path = join(dataDirectory, 'kubeconfig');
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'tollgate-local',
        cluster: {
          server: access.server,
          'certificate-authority-data': Buffer.from(access.certificateAuthority).toString('base64'),
        },
      },
    ],
    users: [{ name: 'tollgate-local', user: { token: access.token } }],
    contexts: [
      {
        name: 'tollgate-local',
        context: { cluster: 'tollgate-local', user: 'tollgate-local', namespace: 'default' },
      },
    ],
    'current-context': 'tollgate-local',
    preferences: {},
  };
  writeFileAtomically(path, stringify(config));
  return path;
}
