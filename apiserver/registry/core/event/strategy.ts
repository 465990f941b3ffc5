/** core/v1 Event: Kubernetes' legacy event validation (involvedObject namespace, reporting fields). */
import type { ApiObject } from '../../../api/object.js';
import type { Strategy } from '../../../api/strategy.js';
import type { FieldError } from '../../../api/field-errors.js';
import { invalid, required } from '../../../api/field-errors.js';
import { isDNS1123Subdomain, isQualifiedName } from '../../../api/validation/names.js';

const LENGTH_LIMIT = 128;
const NOTE_LIMIT = 1024;

interface EventFields {
  involvedObject?: { namespace?: string };
  eventTime?: string;
  reportingComponent?: string;
  reportingInstance?: string;
  action?: string;
  reason?: string;
  message?: string;
}

function validateEvent(obj: ApiObject, systemNamespace: string): FieldError[] {
  const e = obj as ApiObject & EventFields;
  const ns = obj.metadata.namespace ?? '';
  const involvedNs = e.involvedObject?.namespace ?? '';
  const errors: FieldError[] = [];
  const mismatch = () => errors.push(invalid('involvedObject.namespace', involvedNs, 'does not match event.namespace'));
  if (!e.eventTime) {
    if (involvedNs === '' ? ns !== '' && ns !== 'default' : ns !== involvedNs) mismatch();
  } else {
    if (involvedNs === '' && ns !== 'default' && ns !== systemNamespace) mismatch();
    const controller = e.reportingComponent ?? '';
    if (!controller) errors.push(required('reportingComponent', ''));
    for (const m of isQualifiedName(controller)) errors.push(invalid('reportingComponent', controller, m));
    const limited: [keyof EventFields, number][] = [
      ['reportingInstance', LENGTH_LIMIT],
      ['action', LENGTH_LIMIT],
      ['reason', LENGTH_LIMIT],
    ];
    for (const [f, limit] of limited) {
      const v = (e[f] as string | undefined) ?? '';
      if (!v) errors.push(required(f, ''));
      if (v.length > limit) errors.push(invalid(f, '', `can have at most ${limit} characters`));
    }
    if ((e.message ?? '').length > NOTE_LIMIT) errors.push(invalid('message', '', `can have at most ${NOTE_LIMIT} characters`));
  }
  for (const m of isDNS1123Subdomain(ns)) errors.push(invalid('namespace', ns, m));
  return errors;
}

export const eventStrategy: Strategy = {
  validate: (obj, ctx) => validateEvent(obj, ctx.domain.systemNamespace),
};

/** Event fields usable in field selectors, as Kubernetes' event GetAttrs lists them. */
export const eventSelectableFields: Record<string, (obj: ApiObject) => string | undefined> = {
  'involvedObject.kind': (o) => (o.involvedObject as Record<string, string> | undefined)?.kind,
  'involvedObject.namespace': (o) => (o.involvedObject as Record<string, string> | undefined)?.namespace,
  'involvedObject.name': (o) => (o.involvedObject as Record<string, string> | undefined)?.name,
  'involvedObject.uid': (o) => (o.involvedObject as Record<string, string> | undefined)?.uid,
  'involvedObject.apiVersion': (o) => (o.involvedObject as Record<string, string> | undefined)?.apiVersion,
  'involvedObject.resourceVersion': (o) => (o.involvedObject as Record<string, string> | undefined)?.resourceVersion,
  'involvedObject.fieldPath': (o) => (o.involvedObject as Record<string, string> | undefined)?.fieldPath,
  reason: (o) => o.reason as string | undefined,
  reportingComponent: (o) => o.reportingComponent as string | undefined,
  source: (o) => (o.source as Record<string, string> | undefined)?.component,
  type: (o) => o.type as string | undefined,
};
