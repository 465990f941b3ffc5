/**
 * CustomResourceDefinition validation, as Kubernetes 1.28's apiextensions validation: the name is
 * `<plural>.<group>`, the group a domain with a dot, a scope, versions with exactly one storage version
 * and a structural schema each, valid names, printer columns, subresources and conversion, and stored
 * versions that still exist.
 */
import type {
  CustomResourceDefinition,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionSpec,
  CustomResourceDefinitionVersion,
} from '../../../api/generated/types.js';
import { fieldPath, forbidden, invalid, notSupported, required, type FieldError, type FieldPath } from '../../../api/field-errors.js';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain } from '../../../api/validation/names.js';
import { isObject } from '../../shared/cel-schema/json-schema.js';
import { validateCrdSchema } from './schema-rules.js';
import { validateCelRules } from './cel-rules-check.js';

const SCOPES = ['Cluster', 'Namespaced'];
const COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'name', 'password'];
const REVIEW_VERSIONS = ['v1', 'v1beta1'];

export function validateCrd(crd: CustomResourceDefinition, prefix: string): FieldError[] {
  const errors: FieldError[] = [];
  const spec: Partial<CustomResourceDefinitionSpec> = crd.spec ?? {};
  const name = crd.metadata.name ?? '';
  const plural = spec.names?.plural ?? '';
  if (name && isDNS1123Subdomain(name).length === 0 && name !== `${plural}.${spec.group ?? ''}`) {
    errors.push(invalid(fieldPath('metadata', 'name'), name, 'must be spec.names.plural+"."+spec.group'));
  }
  errors.push(...validateSpec(spec, fieldPath('spec'), prefix));
  errors.push(...validateStoredVersions(crd));
  if (spec.preserveUnknownFields === true) {
    errors.push(
      invalid(
        fieldPath('spec', 'preserveUnknownFields'),
        true,
        `cannot set to true, set ${prefix}preserve-unknown-fields to true in spec.versions[*].schema instead`,
      ),
    );
  }
  return errors;
}

/** An update: everything a create checks (preserveUnknownFields may stay true), the scope kept once objects may exist. */
export function validateCrdUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition, prefix: string): FieldError[] {
  const errors = validateCrd(crd, prefix).filter(
    (e) => !(e.field === 'spec.preserveUnknownFields' && old.spec?.preserveUnknownFields === true),
  );
  if (old.spec?.scope && crd.spec?.scope !== old.spec.scope)
    errors.push(invalid(fieldPath('spec', 'scope'), crd.spec?.scope, 'field is immutable'));
  return errors;
}

/** The status: stored versions must still be versions, with the storage version among them. */
export function validateStoredVersions(crd: CustomResourceDefinition): FieldError[] {
  const stored = crd.status?.storedVersions;
  if (stored === undefined) return [];
  const at = fieldPath('status', 'storedVersions');
  const versions = crd.spec?.versions ?? [];
  if (stored.length === 0) return [invalid(at, stored, 'must have at least one stored version')];
  const errors: FieldError[] = [];
  const storage = versions.find((v) => v.storage);
  if (storage && !stored.includes(storage.name)) errors.push(invalid(at, stored, `must have the storage version ${storage.name}`));
  stored.forEach((v, i) => {
    if (!versions.some((x) => x.name === v)) errors.push(invalid(at.index(i), v, 'must appear in spec.versions'));
  });
  return errors;
}

function validateSpec(spec: Partial<CustomResourceDefinitionSpec>, path: FieldPath, prefix: string): FieldError[] {
  const errors: FieldError[] = [];
  const group = spec.group ?? '';
  if (!group) errors.push(required(path.child('group')));
  else if (isDNS1123Subdomain(group).length) errors.push(invalid(path.child('group'), group, isDNS1123Subdomain(group).join(',')));
  else if (group.split('.').length < 2) errors.push(invalid(path.child('group'), group, 'should be a domain with at least one dot'));
  if (!spec.scope) errors.push(required(path.child('scope')));
  else if (!SCOPES.includes(spec.scope)) errors.push(notSupported(path.child('scope'), spec.scope, SCOPES));
  errors.push(...validateVersions(spec.versions ?? [], path.child('versions'), prefix));
  errors.push(...validateNames(spec.names, path.child('names')));
  errors.push(...validateConversion(spec, path.child('conversion')));
  return errors;
}

function validateVersions(versions: CustomResourceDefinitionVersion[], path: FieldPath, prefix: string): FieldError[] {
  if (versions.length === 0) return [required(path, 'must have exactly one version marked as storage version')];
  const errors: FieldError[] = [];
  const names = new Set<string>();
  versions.forEach((v, i) => {
    const at = path.index(i);
    const nameErrors = isDNS1035Label(v.name ?? '');
    if (nameErrors.length) errors.push(invalid(at.child('name'), v.name ?? '', nameErrors.join(',')));
    names.add(v.name);
    errors.push(...validateVersion(v, at, prefix));
  });
  if (names.size !== versions.length) errors.push(invalid(path, versions, 'must contain unique version names'));
  if (versions.filter((v) => v.storage).length !== 1)
    errors.push(invalid(path, versions, 'must have exactly one version marked as storage version'));
  if (!versions.some((v) => v.served)) errors.push(invalid(path, versions, 'must have at least one served version'));
  return errors;
}

function validateVersion(v: CustomResourceDefinitionVersion, path: FieldPath, prefix: string): FieldError[] {
  const errors: FieldError[] = [];
  // Read as plain JSON: the checks below need a JSON object, whatever its keywords.
  const schema: unknown = v.schema?.openAPIV3Schema;
  const schemaPath = path.child('schema', 'openAPIV3Schema');
  if (!isObject(schema)) errors.push(required(schemaPath, 'schemas are required'));
  else {
    const schemaErrors = validateCrdSchema(schema, schemaPath, prefix);
    errors.push(...schemaErrors);
    // Rules are compiled against a schema that is itself valid, as Kubernetes does.
    if (schemaErrors.length === 0) errors.push(...validateCelRules(schema, schemaPath, prefix));
    if (v.subresources?.status !== undefined) {
      const props = isObject(schema.properties) ? Object.keys(schema.properties) : [];
      const allowed = ['metadata', 'apiVersion', 'kind', 'spec', 'status'];
      if (props.some((p) => !allowed.includes(p))) {
        errors.push(
          invalid(
            schemaPath,
            '',
            `only [${allowed.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`,
          ),
        );
      }
    }
  }
  errors.push(...validateSubresources(v, path.child('subresources')));
  (v.additionalPrinterColumns ?? []).forEach((col, i) => {
    const at = path.child('additionalPrinterColumns').index(i);
    if (!col.name) errors.push(required(at.child('name')));
    if (!col.type) errors.push(required(at.child('type'), `must be one of ${COLUMN_TYPES.join(',')}`));
    else if (!COLUMN_TYPES.includes(col.type)) errors.push(invalid(at.child('type'), col.type, `must be one of ${COLUMN_TYPES.join(',')}`));
    if (col.format && !COLUMN_FORMATS.includes(col.format)) {
      errors.push(invalid(at.child('format'), col.format, `must be one of ${COLUMN_FORMATS.join(',')}`));
    }
    if (!col.jsonPath) errors.push(required(at.child('jsonPath')));
    else errors.push(...validateSimpleJsonPath(col.jsonPath, at.child('jsonPath')));
  });
  return errors;
}

function validateSubresources(v: CustomResourceDefinitionVersion, path: FieldPath): FieldError[] {
  const scale = v.subresources?.scale;
  if (!scale) return [];
  const errors: FieldError[] = [];
  const check = (value: string | undefined, name: string, under: string[], what: string, needed: boolean) => {
    const at = path.child(`scale.${name}`);
    if (!value) {
      if (needed) errors.push(required(at));
      return;
    }
    const pathErrors = validateSimpleJsonPath(value, at);
    if (pathErrors.length) errors.push(...pathErrors);
    else if (!under.some((u) => value.startsWith(`${u}.`))) errors.push(invalid(at, value, `should be a json path under ${what}`));
  };
  check(scale.specReplicasPath, 'specReplicasPath', ['.spec'], '.spec', true);
  check(scale.statusReplicasPath, 'statusReplicasPath', ['.status'], '.status', true);
  check(scale.labelSelectorPath, 'labelSelectorPath', ['.spec', '.status'], 'either .spec or .status', false);
  return errors;
}

/** A `.a.b.c` path, as printer columns and the scale subresource name fields. */
function validateSimpleJsonPath(s: string, path: FieldPath): FieldError[] {
  if (s === '') return [invalid(path, s, 'must not be empty')];
  if (!s.startsWith('.')) return [invalid(path, s, 'must be a simple json path starting with .')];
  if (
    s
      .slice(1)
      .split('.')
      .some((part) => part === '' || /[[\]{}*]/.test(part))
  )
    return [invalid(path, s, 'must be a json path in the dot notation')];
  return [];
}

function validateNames(names: CustomResourceDefinition['spec']['names'] | undefined, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const n: Partial<CustomResourceDefinitionNames> = names ?? {};
  const label = (value: string | undefined, name: string, lower: boolean) => {
    if (!value) {
      errors.push(required(path.child(name)));
      return;
    }
    const errs = isDNS1123Label(lower ? value : value.toLowerCase());
    if (errs.length) {
      const detail = lower ? errs.join(',') : `may have mixed case, but should otherwise match: ${errs.join(',')}`;
      errors.push(invalid(path.child(name), value, detail));
    }
  };
  label(n.plural, 'plural', true);
  label(n.singular, 'singular', true);
  label(n.kind, 'kind', false);
  label(n.listKind, 'listKind', false);
  (n.shortNames ?? []).forEach((s, i) => {
    const errs = isDNS1123Label(s);
    if (errs.length) errors.push(invalid(path.child('shortNames').index(i), s, errs.join(',')));
  });
  (n.categories ?? []).forEach((c, i) => {
    const errs = isDNS1123Label(c);
    if (errs.length) errors.push(invalid(path.child('categories').index(i), c, errs.join(',')));
  });
  if (n.kind && n.kind === n.listKind)
    errors.push(invalid(path.child('listKind'), n.listKind, 'kind and listKind may not be the same or parsing become ambiguous'));
  return errors;
}

function validateConversion(spec: Pick<CustomResourceDefinitionSpec, 'conversion'>, path: FieldPath): FieldError[] {
  const conversion = spec.conversion;
  if (!conversion) return [];
  const errors: FieldError[] = [];
  if (!['None', 'Webhook'].includes(conversion.strategy)) {
    errors.push(notSupported(path.child('strategy'), conversion.strategy, ['None', 'Webhook']));
    return errors;
  }
  const webhook = conversion.webhook;
  if (conversion.strategy === 'Webhook') {
    if (!webhook?.clientConfig) {
      errors.push(required(path.child('webhook', 'clientConfig'), 'required when strategy is set to Webhook'));
      return errors;
    }
    const cc = webhook.clientConfig;
    if (!!cc.url === !!cc.service)
      errors.push(required(path.child('webhook', 'clientConfig'), 'exactly one of url or service is required'));
    if (cc.url) {
      let url: URL | undefined;
      try {
        url = new URL(cc.url);
      } catch {
        errors.push(invalid(path.child('webhook', 'clientConfig', 'url'), cc.url, 'must be a valid URL'));
      }
      if (url && url.protocol !== 'https:')
        errors.push(invalid(path.child('webhook', 'clientConfig', 'url'), cc.url, "'https' is the only allowed URL scheme"));
    }
    const reviews = webhook.conversionReviewVersions ?? [];
    if (reviews.length === 0) errors.push(required(path.child('webhook', 'conversionReviewVersions')));
    else if (!reviews.some((r) => REVIEW_VERSIONS.includes(r))) {
      errors.push(
        invalid(path.child('webhook', 'conversionReviewVersions'), reviews, `must include at least one of ${REVIEW_VERSIONS.join(', ')}`),
      );
    }
  } else if (webhook) errors.push(forbidden(path.child('webhook'), 'should not be set when strategy is not set to Webhook'));
  return errors;
}
