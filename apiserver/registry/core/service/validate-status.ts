/**
 * Service status: Kubernetes' ValidateLoadBalancerStatus on status.loadBalancer (1.28,
 * shared/network/load-balancer-status.ts) and apimachinery's ValidateConditions (metav1.Condition
 * rules) on status.conditions.
 */
import type { Service } from '../../../api/generated/types.js';
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { duplicate, fieldPath, invalid, notSupported, required, tooLong } from '../../../api/field-errors.js';
import { isQualifiedName, regexError } from '../../../api/validation/names.js';
import { validateLoadBalancerStatus } from '../../shared/network/load-balancer-status.js';

interface Condition {
  type?: string;
  status?: string;
  observedGeneration?: number;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

const CONDITION_STATUSES = ['False', 'True', 'Unknown'];
const MAX_REASON_LENGTH = 1024;
const MAX_MESSAGE_LENGTH = 32 * 1024;
const REASON_FMT = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?';
const REASON_RE = new RegExp(`^${REASON_FMT}$`);
const REASON_MSG =
  "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'";

/** ValidateConditions: unique qualified-name types, True/False/Unknown, a time, a reason, bounded texts. */
export function validateConditions(conditions: Condition[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const types = new Set<string>();
  (conditions ?? []).forEach((c, i) => {
    const at = path.index(i);
    const type = c.type ?? '';
    if (types.has(type)) errs.push(duplicate(at.child('type'), type));
    types.add(type);
    isQualifiedName(type).forEach((m) => errs.push(invalid(at.child('type'), type, m)));
    if (!CONDITION_STATUSES.includes(c.status ?? '')) errs.push(notSupported(at.child('status'), c.status ?? '', CONDITION_STATUSES));
    if ((c.observedGeneration ?? 0) < 0)
      errs.push(invalid(at.child('observedGeneration'), c.observedGeneration, 'must be greater than or equal to zero'));
    if (!c.lastTransitionTime) errs.push(required(at.child('lastTransitionTime'), 'must be set'));
    const reason = c.reason ?? '';
    if (!reason) errs.push(required(at.child('reason'), 'must be set'));
    else {
      if (!REASON_RE.test(reason)) {
        errs.push(
          invalid(
            at.child('reason'),
            reason,
            regexError(REASON_MSG, REASON_FMT, 'my_name', 'MY_NAME', 'MyName', 'ReasonA,ReasonB', 'ReasonA:ReasonB'),
          ),
        );
      }
      if (reason.length > MAX_REASON_LENGTH) errs.push(tooLong(at.child('reason'), reason, MAX_REASON_LENGTH));
    }
    if ((c.message ?? '').length > MAX_MESSAGE_LENGTH) errs.push(tooLong(at.child('message'), c.message, MAX_MESSAGE_LENGTH));
  });
  return errs;
}

/** The status rules of a Service (ValidateServiceStatusUpdate), checked on writes to /status. */
export function validateServiceStatus(obj: Service): FieldError[] {
  const status = obj.status ?? {};
  return [
    ...validateLoadBalancerStatus(status.loadBalancer?.ingress, fieldPath('status', 'loadBalancer')),
    ...validateConditions(status.conditions, fieldPath('status', 'conditions')),
  ];
}
