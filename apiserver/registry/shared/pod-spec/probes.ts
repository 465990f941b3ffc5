/** Probes and lifecycle handlers of containers (validateProbe, validateHandler, validateLifecycle). */
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { forbidden, invalid, notSupported, required } from '../../../api/field-errors.js';
import { isHTTPHeaderName, isValidPortName, isValidPortNum, validateNonnegative } from './value-checks.js';
import type { HTTPGetAction, IntOrString, Probe } from '../../../api/generated/types.js';

/** The actions of a probe or a lifecycle handler (a lifecycle handler has no grpc). */
type Handler = Pick<Probe, 'exec' | 'httpGet' | 'tcpSocket' | 'grpc'>;

/** ValidatePortNumOrName: an int-or-string port, a number in 1..65535 or an IANA service name. */
export function validatePortNumOrName(port: IntOrString | undefined, path: FieldPath): FieldError[] {
  if (typeof port === 'string') return isValidPortName(port).map((m) => invalid(path, port, m));
  const n = port ?? 0;
  return isValidPortNum(n).map((m) => invalid(path, n, m));
}

const HTTP_SCHEMES = ['HTTP', 'HTTPS'];

/** The actions a handler may use, in Kubernetes' order: probes allow grpc, lifecycle hooks do not. */
type Action = 'exec' | 'httpGet' | 'tcpSocket' | 'grpc';

function validateAction(handler: Handler, action: Action, path: FieldPath): FieldError[] {
  switch (action) {
    case 'exec':
      return (handler.exec?.command ?? []).length === 0 ? [required(path.child('command'))] : [];
    case 'httpGet': {
      const get: Partial<HTTPGetAction> = handler.httpGet ?? {};
      const errs: FieldError[] = [];
      if (!get.path) errs.push(required(path.child('path')));
      errs.push(...validatePortNumOrName(get.port, path.child('port')));
      if (!HTTP_SCHEMES.includes(get.scheme ?? '')) errs.push(notSupported(path.child('scheme'), get.scheme ?? '', HTTP_SCHEMES));
      for (const header of get.httpHeaders ?? []) {
        errs.push(...isHTTPHeaderName(header.name ?? '').map((m) => invalid(path.child('httpHeaders'), header.name ?? '', m)));
      }
      return errs;
    }
    case 'tcpSocket':
      return validatePortNumOrName(handler.tcpSocket?.port, path.child('port'));
    case 'grpc':
      return validatePortNumOrName(handler.grpc?.port ?? 0, path.child('port'));
  }
}

/** validateHandler: exactly one action among `actions`, each valid. */
function validateHandler(handler: Handler, actions: readonly Action[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const action of actions) {
    if (handler[action] === undefined) continue;
    if (count > 0) errs.push(forbidden(path.child(action), 'may not specify more than 1 handler type'));
    else {
      count++;
      errs.push(...validateAction(handler, action, path.child(action)));
    }
  }
  if (count === 0) errs.push(required(path, 'must specify a handler type'));
  return errs;
}

const PROBE_ACTIONS: readonly Action[] = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
const LIFECYCLE_ACTIONS: readonly Action[] = ['exec', 'httpGet', 'tcpSocket'];

export type ProbeKind = 'livenessProbe' | 'readinessProbe' | 'startupProbe';

/** validateLivenessProbe / validateReadinessProbe / validateStartupProbe. */
export function validateProbe(probe: Probe | undefined, kind: ProbeKind, path: FieldPath): FieldError[] {
  if (!probe) return [];
  const errs = validateHandler(probe, PROBE_ACTIONS, path);
  for (const field of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const) {
    errs.push(...validateNonnegative(probe[field] ?? 0, path.child(field)));
  }
  const grace = probe.terminationGracePeriodSeconds;
  if (grace !== undefined && grace <= 0) errs.push(invalid(path.child('terminationGracePeriodSeconds'), grace, 'must be greater than 0'));
  if (kind !== 'readinessProbe' && (probe.successThreshold ?? 0) !== 1) {
    errs.push(invalid(path.child('successThreshold'), probe.successThreshold ?? 0, 'must be 1'));
  }
  if (kind === 'readinessProbe' && grace !== undefined) {
    errs.push(invalid(path.child('terminationGracePeriodSeconds'), grace, 'must not be set for readinessProbes'));
  }
  return errs;
}

/** validateLifecycle: postStart and preStop handlers. */
export function validateLifecycle(lifecycle: { postStart?: Handler; preStop?: Handler }, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (lifecycle.postStart) errs.push(...validateHandler(lifecycle.postStart, LIFECYCLE_ACTIONS, path.child('postStart')));
  if (lifecycle.preStop) errs.push(...validateHandler(lifecycle.preStop, LIFECYCLE_ACTIONS, path.child('preStop')));
  return errs;
}
