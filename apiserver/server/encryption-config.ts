/**
 * --encryption-provider-config: an EncryptionConfiguration (apiserver.config.k8s.io/v1, or the
 * domain's apiserver.config group) naming, per resource, the providers its stored values pass
 * through (storage/value/transformers.ts): aesgcm and aescbc with their keys, and identity. The
 * first entry naming a resource wins; `*.<group>` names a group's resources, `*.` the core group's
 * and `*.*` every resource, custom ones included. Checked as Kubernetes 1.28 checks it; secretbox
 * and kms are Kubernetes providers orch does not have, and a file naming them is refused.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { configTypeProblem } from '../api/config-versions.js';
import { isArray, isOneOf, isPlainObject } from '../api/object.js';
import type { ApiDomain } from '../api/domain.js';
import { messageOf } from '../api/thrown.js';
import {
  AES_KEY_SIZES,
  aesCbcTransformer,
  aesGcmTransformer,
  identityTransformer,
  PrefixTransformers,
  type Transformer,
} from '../storage/value/transformers.js';

/** The providers of a resource ("secrets", "deployments.apps"), or none: its values are stored as they are. */
export type ResourceEncryption = (resource: string) => PrefixTransformers | undefined;

const PROVIDERS = ['aesgcm', 'aescbc', 'secretbox', 'identity', 'kms'] as const;
const UNSUPPORTED = ['secretbox', 'kms'] as const;
const RESOURCE = /^(\*|[a-z0-9]([-a-z0-9]*[a-z0-9])?)(\.(\*|[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*))?\.?$/;

export function loadEncryptionConfig(file: string, domain: ApiDomain): ResourceEncryption {
  let doc: unknown;
  try {
    doc = parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`error while parsing encryption provider configuration file "${file}": ${messageOf(err)}`);
  }
  return checkEncryptionConfig(doc, domain, file);
}

export function checkEncryptionConfig(doc: unknown, domain: ApiDomain, file = 'encryption configuration'): ResourceEncryption {
  const problems: string[] = [];
  const fail = (why: string): never => {
    throw new Error(`error while parsing encryption provider configuration file "${file}": ${why}`);
  };
  if (!isPlainObject(doc)) return fail('not an object');
  const wrongType = configTypeProblem('EncryptionConfiguration', doc, domain);
  if (wrongType) fail(wrongType);
  const entries = doc.resources;
  if (!isArray(entries) || entries.length === 0) return fail('resources: Required value: resources is a required field');
  const rules: { resources: string[]; transformers: PrefixTransformers }[] = [];
  const seen = new Map<string, string>();
  entries.forEach((entry, i) => {
    const at = `resources[${i}]`;
    const e = isPlainObject(entry) ? entry : {};
    const names = isArray(e.resources) ? e.resources : [];
    const valid: string[] = [];
    if (names.length === 0) problems.push(`${at}.resources: Required value: resources is a required field`);
    for (const [j, name] of names.entries()) {
      if (typeof name !== 'string' || !RESOURCE.test(name) || name === '*') {
        problems.push(
          `${at}.resources[${j}]: Invalid value: ${JSON.stringify(name)}: resource name should not contain uppercase characters and must be a resource, resource.group, *.group, *. or *.*`,
        );
      } else if (seen.has(name)) {
        problems.push(`${at}.resources[${j}]: Invalid value: ${JSON.stringify(name)}: duplicate resource, also in ${seen.get(name)}`);
      } else {
        seen.set(name, `${at}.resources[${j}]`);
        valid.push(name);
      }
    }
    const providers = isArray(e.providers) ? e.providers : [];
    if (providers.length === 0)
      problems.push(
        `${at}.providers: Required value: provider does not contain any of the expected providers: KMS, secretbox, aesgcm, aescbc or identity`,
      );
    const transformers: Transformer[] = [];
    providers.forEach((provider, k) => {
      const pat = `${at}.providers[${k}]`;
      const p = isPlainObject(provider) ? provider : {};
      const kinds = PROVIDERS.filter((name) => p[name] !== undefined && p[name] !== null);
      if (kinds.length !== 1) {
        problems.push(
          kinds.length === 0
            ? `${pat}: Invalid value: provider does not contain any of the expected providers: KMS, secretbox, aesgcm, aescbc or identity`
            : `${pat}: Invalid value: more than one provider specified in a single element, should split into different list elements`,
        );
        return;
      }
      const kind = kinds[0];
      if (isOneOf(UNSUPPORTED, kind)) {
        problems.push(`${pat}.${kind}: Unsupported value: orch encrypts with aesgcm or aescbc (or stores with identity)`);
        return;
      }
      if (kind === 'identity') return void transformers.push(identityTransformer);
      transformers.push(...keyTransformers(kind, p[kind], `${pat}.${kind}`, problems));
    });
    // A rule with any invalid name is never used: its problem fails the whole file below.
    if (transformers.length > 0 && names.length > 0) rules.push({ resources: valid, transformers: new PrefixTransformers(transformers) });
  });
  if (problems.length > 0) fail(problems.join(', '));
  return (resource) => {
    const dot = resource.indexOf('.');
    const group = dot < 0 ? '' : resource.slice(dot + 1);
    const candidates = [resource, `*.${group}`, '*.*'];
    if (dot < 0) candidates.splice(1, 0, `${resource}.`);
    for (const rule of rules) if (rule.resources.some((r) => candidates.includes(r))) return rule.transformers;
    return undefined;
  };
}

function keyTransformers(kind: 'aesgcm' | 'aescbc', config: unknown, at: string, problems: string[]): Transformer[] {
  const keys = isPlainObject(config) ? config.keys : undefined;
  if (!isArray(keys) || keys.length === 0) {
    problems.push(`${at}.keys: Required value: keys (at least one) are required`);
    return [];
  }
  const names = new Set<string>();
  const out: Transformer[] = [];
  keys.forEach((key, i) => {
    const kat = `${at}.keys[${i}]`;
    const k = isPlainObject(key) ? key : {};
    if (typeof k.name !== 'string' || k.name === '') return void problems.push(`${kat}.name: Required value: key name is required`);
    if (k.name.includes(':')) return void problems.push(`${kat}.name: Invalid value: ${JSON.stringify(k.name)}: should not contain ':'`);
    if (names.has(k.name)) return void problems.push(`${kat}.name: Duplicate value: ${JSON.stringify(k.name)}`);
    names.add(k.name);
    if (typeof k.secret !== 'string' || k.secret === '') return void problems.push(`${kat}.secret: Required value: secret is required`);
    const secret = Buffer.from(k.secret, 'base64');
    if (secret.toString('base64').replace(/=+$/, '') !== k.secret.replace(/=+$/, '')) {
      return void problems.push(`${kat}.secret: Invalid value: "REDACTED": secrets must be base64 encoded`);
    }
    if (!AES_KEY_SIZES.includes(secret.length)) {
      return void problems.push(
        `${kat}.secret: Invalid value: "REDACTED": secret is not of the expected length, got ${secret.length}, expected one of [16 24 32]`,
      );
    }
    out.push(kind === 'aesgcm' ? aesGcmTransformer(k.name, secret) : aesCbcTransformer(k.name, secret));
  });
  return out;
}
