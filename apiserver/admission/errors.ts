/** Admission's refusals, worded as Kubernetes' admission.NewForbidden: `<resource> "<name>" is forbidden: <why>`. */
import * as status from '../api/status.js';
import type { AdmissionAttributes } from './interfaces.js';

export function admissionForbidden(a: Pick<AdmissionAttributes, 'resource' | 'name'>, why: string): status.ApiError {
  return status.forbidden({ group: a.resource.group, resource: a.resource.plural }, a.name, why);
}
