/**
 * The rules of a CRD version's openAPIV3Schema, as Kubernetes 1.28 checks them: the OpenAPI keywords a
 * CRD may use, the domain's extensions, and the structural-schema invariants (every field typed, the
 * root an object, metadata limited to name and generateName, value validations in allOf/anyOf/oneOf/not
 * without types). Extension names in the errors are the domain's (`x-orch-list-type`).
 */
import { forbidden, invalid, notSupported, required, type FieldError, type FieldPath } from '../../../api/field-errors.js';
import { ext, isObject, type JsonSchemaProps } from '../../shared/cel-schema/json-schema.js';
import { validRuleFieldPath } from './cel-field-path.js';
import { messageOf } from '../../../api/thrown.js';

type Level = 'root' | 'field' | 'item';

const TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const UNSUPPORTED: [string, string][] = [
  ['id', 'id is not supported'],
  ['additionalItems', 'additionalItems is not supported'],
  ['patternProperties', 'patternProperties is not supported'],
  ['definitions', 'definitions is not supported'],
  ['dependencies', 'dependencies is not supported'],
  ['$ref', '$ref is not supported'],
];
/** Keys a schema inside allOf/anyOf/oneOf/not may not set, with what Kubernetes says. */
const NOT_IN_JUNCTIONS: [string, string][] = [
  ['type', 'must be empty to be structural'],
  ['additionalProperties', 'must be undefined to be structural'],
  ['default', 'must be undefined to be structural'],
  ['title', 'must be empty to be structural'],
  ['description', 'must be empty to be structural'],
];
const EXT_NOT_IN_JUNCTIONS: [string, string][] = [
  ['preserve-unknown-fields', 'must be false to be structural'],
  ['embedded-resource', 'must be false to be structural'],
  ['int-or-string', 'must be false to be structural'],
  ['list-map-keys', 'must be empty to be structural'],
  ['list-type', 'must be undefined to be structural'],
  ['map-type', 'must be undefined to be structural'],
  ['validations', 'must be empty to be structural'],
];

/** Most nested levels a CRD schema may have (Kubernetes bounds its recursion the same way). */
const MAX_DEPTH = 64;

/** Errors of a version's openAPIV3Schema at `path` (spec.versions[i].schema.openAPIV3Schema). */
export function validateCrdSchema(schema: JsonSchemaProps, path: FieldPath, prefix: string): FieldError[] {
  const errors: FieldError[] = [];
  walk(schema, 'root', path, prefix, errors, 0);
  return errors;
}

function walk(s: JsonSchemaProps, lvl: Level, path: FieldPath, prefix: string, errors: FieldError[], depth: number): void {
  if (depth > MAX_DEPTH) {
    errors.push(forbidden(path, `must not be nested more than ${MAX_DEPTH} levels`));
    return;
  }
  keywordRules(s, path, prefix, errors);
  extensionRules(s, path, prefix, errors);
  structuralRules(s, lvl, path, prefix, errors);
  if (isObject(s.properties)) {
    for (const [k, v] of Object.entries(s.properties)) {
      if (isObject(v)) walk(v, 'field', path.child('properties').key(k), prefix, errors, depth + 1);
    }
  }
  if (isObject(s.items)) walk(s.items, 'item', path.child('items'), prefix, errors, depth + 1);
  if (isObject(s.additionalProperties))
    walk(s.additionalProperties, 'field', path.child('additionalProperties'), prefix, errors, depth + 1);
  for (const junction of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = s[junction];
    if (Array.isArray(list))
      list.forEach((v, i) => isObject(v) && junctionRules(v, path.child(junction).index(i), prefix, errors, depth + 1));
  }
  if (isObject(s.not)) junctionRules(s.not, path.child('not'), prefix, errors, depth + 1);
}

function keywordRules(s: JsonSchemaProps, path: FieldPath, prefix: string, errors: FieldError[]): void {
  if (s.type !== undefined && !TYPES.includes(String(s.type))) {
    if (s.type === 'null') errors.push(forbidden(path.child('type'), 'type cannot be set to null, use nullable as an alternative'));
    else errors.push(notSupported(path.child('type'), s.type, TYPES));
  }
  for (const [key, detail] of UNSUPPORTED) if (s[key] !== undefined) errors.push(forbidden(path.child(key), detail));
  if (Array.isArray(s.items)) errors.push(forbidden(path.child('items'), 'items must be a schema object and not an array'));
  if (s.uniqueItems === true) {
    errors.push(forbidden(path.child('uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  }
  if (isObject(s.properties) && s.additionalProperties !== undefined && s.additionalProperties !== false) {
    errors.push(forbidden(path.child('additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
  }
  if (typeof s.pattern === 'string') {
    try {
      new RegExp(s.pattern, 'u');
    } catch (err) {
      errors.push(invalid(path.child('pattern'), s.pattern, `must be a valid regular expression, but isn't: ${messageOf(err)}`));
    }
  }
  if (s.required !== undefined && !(Array.isArray(s.required) && s.required.every((r) => typeof r === 'string'))) {
    errors.push(invalid(path.child('required'), s.required, 'must be a list of property names'));
  }
  if (s.enum !== undefined && !Array.isArray(s.enum)) errors.push(invalid(path.child('enum'), s.enum, 'must be a list of values'));
  void prefix;
}

function extensionRules(s: JsonSchemaProps, path: FieldPath, prefix: string, errors: FieldError[]): void {
  const name = (n: string) => path.child(`${prefix}${n}`);
  const preserve = ext(s, 'preserve-unknown-fields', prefix);
  if (preserve !== undefined && preserve !== true)
    errors.push(invalid(name('preserve-unknown-fields'), preserve, 'must be true or undefined'));
  if (ext(s, 'int-or-string', prefix) === true) {
    if (preserve === true) errors.push(invalid(name('preserve-unknown-fields'), true, `must be false if ${prefix}int-or-string is true`));
    if (ext(s, 'embedded-resource', prefix) === true) {
      errors.push(invalid(name('embedded-resource'), true, `must be false if ${prefix}int-or-string is true`));
    }
  }
  const mapType = ext(s, 'map-type', prefix);
  if (mapType !== undefined) {
    if (s.type !== 'object') errors.push(typeRequirement(s, path, `must be object if ${prefix}map-type is specified`));
    if (mapType !== 'atomic' && mapType !== 'granular') errors.push(notSupported(name('map-type'), mapType, ['atomic', 'granular']));
  }
  const listType = ext(s, 'list-type', prefix);
  const mapKeys = ext(s, 'list-map-keys', prefix);
  if (listType !== undefined) {
    if (s.type !== 'array') errors.push(typeRequirement(s, path, `must be array if ${prefix}list-type is specified`));
    if (!['atomic', 'set', 'map'].includes(String(listType)))
      errors.push(notSupported(name('list-type'), listType, ['atomic', 'set', 'map']));
  }
  if (Array.isArray(mapKeys) && mapKeys.length > 0) {
    if (listType === undefined) errors.push(required(name('list-type'), `must be map if ${prefix}list-map-keys is non-empty`));
    else if (listType !== 'map') errors.push(invalid(name('list-type'), listType, `must be map if ${prefix}list-map-keys is non-empty`));
  }
  if (listType === 'map') {
    if (!Array.isArray(mapKeys) || mapKeys.length === 0) {
      errors.push(required(name('list-map-keys'), `must not be empty if ${prefix}list-type is map`));
    }
    const items = s.items;
    if (!isObject(items)) errors.push(required(path.child('items'), `must have a schema if ${prefix}list-type is map`));
    else if (items.type !== 'object') {
      errors.push(
        invalid(path.child('items').child('type'), items.type ?? '', `must be object if parent array's ${prefix}list-type is map`),
      );
    } else if (Array.isArray(mapKeys)) {
      const props = isObject(items.properties) ? items.properties : {};
      if (!mapKeys.every((k) => typeof k === 'string' && isObject(props[k]))) {
        errors.push(invalid(name('list-map-keys'), mapKeys, 'entries must all be names of item properties'));
      } else if (new Set(mapKeys).size !== mapKeys.length) {
        errors.push(invalid(name('list-map-keys'), mapKeys, 'must not contain duplicate entries'));
      }
    }
  }
  if (listType === 'set' && isObject(s.items)) {
    const itemType = s.items.type;
    if (itemType === 'object' && ext(s.items, 'map-type', prefix) !== 'atomic') {
      errors.push(
        invalid(path.child('items').child(`${prefix}map-type`), listType, `must be atomic as item of a list with ${prefix}list-type=set`),
      );
    }
    if (itemType === 'array' && ext(s.items, 'list-type', prefix) !== 'atomic') {
      errors.push(
        invalid(path.child('items').child(`${prefix}list-type`), listType, `must be atomic as item of a list with ${prefix}list-type=set`),
      );
    }
  }
  const validations = ext(s, 'validations', prefix);
  if (validations !== undefined) {
    if (!Array.isArray(validations)) errors.push(invalid(name('validations'), validations, 'must be a list of rules'));
    else {
      validations.forEach((rule, i) => {
        const at = name('validations').index(i);
        if (!isObject(rule) || typeof rule.rule !== 'string' || rule.rule.trim() === '') {
          errors.push(required(at.child('rule'), 'rule is not specified'));
          return;
        }
        if (rule.message !== undefined) {
          if (typeof rule.message !== 'string' || rule.message.trim() === '') {
            errors.push(invalid(at.child('message'), rule.message, 'message must be non-empty if specified'));
          } else if (/[\r\n]/.test(rule.message))
            errors.push(invalid(at.child('message'), rule.message, 'message must not contain line breaks'));
        } else if (/[\r\n]/.test(rule.rule))
          errors.push(required(at.child('message'), 'message must be specified if rule contains line breaks'));
        if (typeof rule.messageExpression === 'string' && rule.messageExpression.length > 0 && rule.messageExpression.trim() === '')
          errors.push(required(at.child('messageExpression'), 'messageExpression must be non-empty if specified'));
        const reasons = ['FieldValueInvalid', 'FieldValueForbidden', 'FieldValueRequired', 'FieldValueDuplicate'];
        if (rule.reason !== undefined && !reasons.includes(String(rule.reason)))
          errors.push(notSupported(at.child('reason'), rule.reason, reasons));
        if (typeof rule.fieldPath === 'string' && rule.fieldPath.length > 0) {
          const fp = rule.fieldPath;
          if (fp.trim() === '') errors.push(invalid(at.child('fieldPath'), fp, 'fieldPath must be non-empty if specified'));
          if (/[\r\n]/.test(fp)) errors.push(invalid(at.child('fieldPath'), fp, 'fieldPath must not contain line breaks'));
          else if (!validRuleFieldPath(fp, s)) errors.push(invalid(at.child('fieldPath'), fp, 'fieldPath must be a valid path'));
        }
      });
    }
  }
}

function typeRequirement(s: JsonSchemaProps, path: FieldPath, detail: string): FieldError {
  return s.type === undefined || s.type === '' ? required(path.child('type'), detail) : invalid(path.child('type'), s.type, detail);
}

function structuralRules(s: JsonSchemaProps, lvl: Level, path: FieldPath, prefix: string, errors: FieldError[]): void {
  const embedded = ext(s, 'embedded-resource', prefix) === true;
  const preserve = ext(s, 'preserve-unknown-fields', prefix) === true;
  if (s.type === 'array' && !isObject(s.items)) errors.push(required(path.child('items'), 'must be specified'));
  if (lvl === 'root' && s.additionalProperties !== undefined)
    errors.push(forbidden(path.child('additionalProperties'), 'must not be used at the root'));
  if (embedded && s.type !== 'object') errors.push(typeRequirement(s, path, `must be object if ${prefix}embedded-resource is true`));
  else if ((s.type === undefined || s.type === '') && ext(s, 'int-or-string', prefix) !== true && !preserve) {
    const where = { root: 'at the root', item: 'for specified array items', field: 'for specified object fields' }[lvl];
    errors.push(required(path.child('type'), `must not be empty ${where}`));
  }
  if (embedded && s.additionalProperties !== undefined) {
    errors.push(forbidden(path.child('additionalProperties'), `must not be used if ${prefix}embedded-resource is set`));
  }
  if (lvl === 'root' && s.type !== undefined && s.type !== '' && s.type !== 'object') {
    errors.push(invalid(path.child('type'), s.type, 'must be object at the root'));
  }
  if (lvl === 'root' && s.nullable === true) errors.push(forbidden(path.child('nullable'), 'nullable cannot be true at the root'));
  const props = isObject(s.properties) ? s.properties : {};
  const checkMetadata = lvl === 'root' || embedded;
  for (const key of ['kind', 'apiVersion']) {
    const p = props[key];
    if (checkMetadata && isObject(p) && p.type !== 'string') {
      errors.push(invalid(path.child('properties').key(key).child('type'), p.type ?? '', 'must be string'));
    }
  }
  const metadata = props.metadata;
  if (isObject(metadata)) {
    const at = path.child('properties').key('metadata');
    if (checkMetadata && metadata.type !== 'object') errors.push(invalid(at.child('type'), metadata.type ?? '', 'must be object'));
    if (lvl === 'root') {
      const { type: _t, default: _d, properties, ...rest } = metadata;
      const names = isObject(properties) ? Object.keys(properties) : [];
      if (Object.keys(rest).length > 0 || names.some((n) => n !== 'name' && n !== 'generateName')) {
        errors.push(forbidden(at, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
      }
    }
  }
  if (embedded && !preserve && Object.keys(props).length === 0) {
    errors.push(
      required(
        path.child('properties'),
        `must not be empty if ${prefix}embedded-resource is true without ${prefix}preserve-unknown-fields`,
      ),
    );
  }
}

/** A schema in allOf/anyOf/oneOf/not: value validation only. */
function junctionRules(s: JsonSchemaProps, path: FieldPath, prefix: string, errors: FieldError[], depth: number): void {
  if (depth > MAX_DEPTH) {
    errors.push(forbidden(path, `must not be nested more than ${MAX_DEPTH} levels`));
    return;
  }
  for (const [key, detail] of NOT_IN_JUNCTIONS) if (s[key] !== undefined) errors.push(forbidden(path.child(key), detail));
  if (s.nullable === true) errors.push(forbidden(path.child('nullable'), 'must be false to be structural'));
  for (const [name, detail] of EXT_NOT_IN_JUNCTIONS)
    if (ext(s, name as never, prefix) !== undefined) errors.push(forbidden(path.child(`${prefix}${name}`), detail));
  if (isObject(s.properties) && s.properties.metadata !== undefined) {
    errors.push(forbidden(path.child('properties').key('metadata'), 'must not be specified in a nested context'));
  }
  keywordRules(s, path, prefix, errors);
  if (isObject(s.properties)) {
    for (const [k, v] of Object.entries(s.properties))
      if (isObject(v)) junctionRules(v, path.child('properties').key(k), prefix, errors, depth + 1);
  }
  if (isObject(s.items)) junctionRules(s.items, path.child('items'), prefix, errors, depth + 1);
  for (const junction of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = s[junction];
    if (Array.isArray(list))
      list.forEach((v, i) => isObject(v) && junctionRules(v, path.child(junction).index(i), prefix, errors, depth + 1));
  }
  if (isObject(s.not)) junctionRules(s.not, path.child('not'), prefix, errors, depth + 1);
}
