/**
 * Static bearer tokens from --token-auth-file, in kube-apiserver's CSV format:
 *
 *   token,user,uid,"group1,group2"
 *
 * The groups column is optional; blank lines and lines starting with # are skipped. The file is
 * read once, at startup; a malformed line is an error naming its line number.
 */
import { readFileSync } from 'node:fs';
import type { TokenAuthenticator, UserInfo } from './interfaces.js';

/** One line of a token file. */
export interface TokenEntry {
  token: string;
  user: UserInfo;
  /** 1-based line number in the file. */
  line: number;
}

/** Parses a token file's text; `path` only names the file in errors. */
export function parseTokenFile(text: string, path: string): TokenEntry[] {
  const entries: TokenEntry[] = [];
  const firstLine = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) return;
    const fail = (why: string) => new Error(`token file ${JSON.stringify(path)} line ${line}: ${why}`);
    const record = parseCsvRecord(raw);
    if (typeof record === 'string') throw fail(record);
    if (record.length < 3) throw fail(`must have at least 3 columns (token, user name, user uid), found ${record.length}`);
    const [token, name, uid, groups] = record;
    if (token === '') throw fail('empty token');
    if (name === '') throw fail('empty user name');
    const previous = firstLine.get(token);
    if (previous !== undefined) throw fail(`duplicate token (first on line ${previous})`);
    firstLine.set(token, line);
    const user: UserInfo = { name, groups: groups ? groups.split(',').filter((g) => g !== '') : [] };
    if (uid !== '') user.uid = uid;
    entries.push({ token, user, line });
  });
  return entries;
}

/** Reads `path` now and accepts the tokens it lists; any other token is not its kind (null). */
export function newTokenFileAuthenticator(path: string): TokenAuthenticator {
  const users = new Map(parseTokenFile(readFileSync(path, 'utf8'), path).map((e) => [e.token, e.user]));
  return {
    async authenticateToken(token) {
      const user = users.get(token);
      return user ? { ...user, groups: [...user.groups] } : null;
    },
  };
}

/** One CSV line (RFC 4180 quoting, leading spaces trimmed like Go's TrimLeadingSpace), or an error message. */
function parseCsvRecord(line: string): string[] | string {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    let field = '';
    if (line[i] === '"') {
      i++;
      for (;;) {
        if (i >= line.length) return 'unterminated quoted field';
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += line[i++];
      }
      if (i < line.length && line[i] !== ',') return `extraneous ${JSON.stringify(line[i])} after quoted field`;
    } else {
      const end = line.indexOf(',', i);
      field = line.slice(i, end < 0 ? line.length : end);
      if (field.includes('"')) return 'bare " in non-quoted field';
      i = end < 0 ? line.length : end;
    }
    fields.push(field);
    if (i >= line.length) return fields;
    i++; // the comma
  }
}
