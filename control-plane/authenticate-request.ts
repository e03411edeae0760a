/**
 * Who sends a request: the kubeconfig's bearer token is `kubernetes-admin` in `system:masters`
 * (cluster-admin); further users come from `<data>/tokens.csv`, the API server's static token file
 * format (`token,user,uid,"group1,group2"`), re-read when it changes. Anything else is 401.
 */
import { timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { unauthorized } from './api-errors.js';
import type { UserInfo } from './request-attributes.js';

export const ADMIN_USER = 'kubernetes-admin';
export const MASTERS_GROUP = 'system:masters';
export const AUTHENTICATED_GROUP = 'system:authenticated';

interface TokenUser {
  token: string;
  user: UserInfo;
}

/** Pure: one CSV line into fields (double quotes around a field that holds commas). */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  let current = '';
  let quoted = false;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    else if (char === ',' && !quoted) {
      fields.push(current);
      current = '';
    } else current += char;
  }
  fields.push(current);
  return fields.map((field) => field.trim());
}

/** Pure: the static token file; lines without a token or a user name are skipped. */
export function parseTokenFile(text: string): TokenUser[] {
  const users: TokenUser[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const [token = '', name = '', uid = '', groups = ''] = csvFields(line);
    if (token === '' || name === '') continue;
    const listed = groups.split(',').filter((group) => group !== '');
    users.push({
      token,
      user: { name, uid, groups: [...listed, AUTHENTICATED_GROUP], extra: {} },
    });
  }
  return users;
}

function sameToken(given: string, wanted: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(wanted);
  return a.length === b.length && timingSafeEqual(a, b);
}

export class Authenticator {
  private readonly adminToken: string;
  private readonly tokenFile: string;
  private fileStamp = '';
  private users: TokenUser[] = [];

  constructor(options: { adminToken: string; dataDirectory: string }) {
    this.adminToken = options.adminToken;
    this.tokenFile = join(options.dataDirectory, 'tokens.csv');
  }

  private tokenUsers(): TokenUser[] {
    let stamp = '';
    try {
      const stat = statSync(this.tokenFile);
      stamp = `${stat.mtimeMs}:${stat.size}`;
    } catch {
      stamp = 'absent';
    }
    if (stamp !== this.fileStamp) {
      this.fileStamp = stamp;
      this.users = stamp === 'absent' ? [] : parseTokenFile(readFileSync(this.tokenFile, 'utf8'));
    }
    return this.users;
  }

  authenticate(request: IncomingMessage): UserInfo {
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    if (token === '') throw unauthorized();
    if (sameToken(token, this.adminToken)) {
      return { name: ADMIN_USER, uid: '', groups: [MASTERS_GROUP, AUTHENTICATED_GROUP], extra: {} };
    }
    const found = this.tokenUsers().find((entry) => sameToken(token, entry.token));
    if (found === undefined) throw unauthorized();
    return structuredClone(found.user);
  }
}
