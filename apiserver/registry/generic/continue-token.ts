/**
 * Opaque continue tokens, shaped like Kubernetes' so the format is familiar: base64 of
 * {"v":"meta.k8s.io/v1","rv":<list revision>,"start":"<next key, relative to the resource prefix>"}.
 * rv -1 is the inconsistent token handed out with a 410: continue at the latest revision.
 */
import * as status from '../../api/status.js';
import { isPlainObject } from '../../api/object.js';

const VERSION = 'meta.k8s.io/v1';

export interface ContinuePosition {
  revision: number;
  /** Key relative to the resource's prefix, inclusive. */
  start: string;
}

export function encodeContinue(pos: ContinuePosition): string {
  return Buffer.from(JSON.stringify({ v: VERSION, rv: pos.revision, start: pos.start })).toString('base64url');
}

export function decodeContinue(token: string): ContinuePosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw status.badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  const p = parsed;
  if (!isPlainObject(p) || p.v !== VERSION)
    throw status.badRequest('continue key is not valid: server does not recognize this encoded version');
  if (typeof p.rv !== 'number' || !Number.isSafeInteger(p.rv) || p.rv === 0 || p.rv < -1) {
    throw status.badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  if (typeof p.start !== 'string' || p.start === '' || p.start.includes('..') || p.start.startsWith('/')) {
    throw status.badRequest('continue key is not valid: encoded start key is invalid');
  }
  return { revision: p.rv, start: p.start };
}

export const CONTINUE_EXPIRED_MESSAGE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';
