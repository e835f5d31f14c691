// Static token file (--token-auth-file): CSV lines `token,user,uid[,"group1,group2"]`.
// As kube-apiserver: at least 3 columns (else the server refuses to start),
// an empty token is skipped, a duplicate token replaces the earlier line, the
// fourth column is split on commas into groups. Tokens never expire. The
// lookup is a map lookup, as kube's (tokenfile keeps a map from token to user):
// it is on every request's path.

import { parseCsv } from './csv';
import type { AuthnResult, TokenAuthenticator, UserInfo } from '../types';

export interface StaticTokenEntry {
  readonly token: string;
  readonly user: UserInfo;
}

export interface TokenFileParse {
  readonly entries: StaticTokenEntry[];
  /** kube logs these; no token is ever included. */
  readonly warnings: string[];
}

export function parseTokenFile(text: string, path = 'tokens.csv'): TokenFileParse {
  const { records } = parseCsv(text);
  const byToken = new Map<string, StaticTokenEntry>();
  const warnings: string[] = [];
  let recordNum = 0;
  for (const record of records) {
    if (record.length < 3) {
      throw new Error(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`);
    }
    recordNum++;
    const [token, username, uid] = record as [string, string, string];
    if (token === '') {
      warnings.push(`empty token has been found in token file '${path}', record number '${recordNum}'`);
      continue;
    }
    if (byToken.has(token)) warnings.push(`duplicate token has been found in token file '${path}', record number '${recordNum}'`);
    const user: UserInfo = record.length >= 4 ? { username, uid, groups: record[3]!.split(',') } : { username, uid, groups: [] };
    byToken.set(token, { token, user });
  }
  return { entries: [...byToken.values()], warnings };
}

export function createStaticTokenAuthenticator(entries: readonly StaticTokenEntry[]): TokenAuthenticator {
  const byToken = new Map<string, UserInfo>();
  for (const entry of entries) if (!byToken.has(entry.token)) byToken.set(entry.token, entry.user);
  return {
    name: 'token-file',
    authenticateToken(token): AuthnResult {
      const user = byToken.get(token);
      if (!user) return { status: 'none' };
      return { status: 'ok', user, authenticator: 'token-file' };
    },
  };
}
