/**
 * A validation rule's fieldPath, checked as Kubernetes checks it: a JSON path of `.name` steps and
 * `['quoted name']` steps (for names that are not identifiers, or map keys) that must name a field the
 * schema declares, or (either form) a key of a map (additionalProperties).
 */
import { isObject, type JsonSchemaProps } from '../../shared/cel-schema/json-schema.js';

/** Whether the path refers to a field of the schema. */
export function validRuleFieldPath(path: string, schema: JsonSchemaProps): boolean {
  const step = /^(?:\.([^.[\]']+)|\['((?:[^'\\]|\\.)*)'\])/;
  let s: JsonSchemaProps = schema;
  let rest = path.trim();
  if (rest === '') return false;
  while (rest !== '') {
    const m = step.exec(rest);
    if (!m) return false;
    rest = rest.slice(m[0].length);
    const name = m[1] ?? m[2].replace(/\\(.)/g, '$1');
    const properties = isObject(s.properties) ? s.properties : undefined;
    if (properties) {
      const child = properties[name];
      if (!isObject(child)) return false;
      s = child;
    } else if (isObject(s.additionalProperties)) s = s.additionalProperties;
    else return false;
  }
  return true;
}
