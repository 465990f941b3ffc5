import type { ApiObject } from '../../api/object.js';
import type { NameRule, ResourceDef } from '../../api/resource.js';
import type { FieldError } from '../../api/field-errors.js';
import type { StrategyContext } from '../../api/strategy.js';
import * as status from '../../api/status.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../api/validation/object-meta.js';
import { nameIsDNS1035Label, nameIsDNSLabel, nameIsDNSSubdomain, validatePathSegmentName } from '../../api/validation/names.js';

const NAME_RULES: Record<NameRule, (name: string, prefix: boolean) => string[]> = {
  'dns-subdomain': nameIsDNSSubdomain,
  'dns-label': nameIsDNSLabel,
  'dns-1035-label': nameIsDNS1035Label,
  'path-segment': validatePathSegmentName,
};

function throwIfInvalid(def: ResourceDef, obj: ApiObject, errors: FieldError[]): void {
  if (errors.length) throw status.invalid({ group: def.group, kind: def.kind }, obj.metadata.name ?? '', errors);
}

/** A create: the shared metadata rules and the kind's create rules (Strategy.validate), answered together as one 422. */
export function validateForCreate(def: ResourceDef, obj: ApiObject, ctx: StrategyContext): void {
  const errors = validateObjectMeta(obj.metadata, { namespaced: def.namespaced, nameFn: NAME_RULES[def.nameRule] });
  errors.push(...(def.strategy?.validate?.(obj, ctx) ?? []));
  throwIfInvalid(def, obj, errors);
}

/**
 * An update: the metadata update rules, then the subresource's rules and/or the kind's update rules
 * (Strategy.validateUpdate, which applies the rules it shares with create itself), as one 422.
 */
export function validateForUpdate(def: ResourceDef, obj: ApiObject, old: ApiObject, ctx: StrategyContext, subresource = ''): void {
  const errors = validateObjectMetaUpdate(obj.metadata, old.metadata, { namespaced: def.namespaced, nameFn: NAME_RULES[def.nameRule] });
  const sub = subresource ? def.subresources?.[subresource] : undefined;
  if (sub) errors.push(...(sub.validateUpdate?.(obj, old, ctx) ?? []));
  if (!sub || sub.view) errors.push(...(def.strategy?.validateUpdate?.(obj, old, ctx) ?? []));
  throwIfInvalid(def, obj, errors);
}
