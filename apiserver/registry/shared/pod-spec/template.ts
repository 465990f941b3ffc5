/** Pod templates embedded in workloads: defaults and disabled-field dropping of their pod spec. */
import type { ApiObject } from '../../../api/object.js';
import { setPodSpecDefaults } from './defaults.js';
import { dropDisabledPodSpecFields } from './drop-disabled.js';
import type { PodSpec, PodTemplateSpec } from '../../../api/generated/types.js';

/** The template of a workload spec, created when absent so defaults have somewhere to go. */
export function templateOf(spec: { template?: PodTemplateSpec }): PodTemplateSpec {
  spec.template ??= {};
  return spec.template;
}

/** The pod spec of a template, created when absent. */
function templatePodSpec(template: PodTemplateSpec): PodSpec {
  // Defaults fill an absent spec in place; validation then reports its missing required fields.
  template.spec ??= {} as PodSpec;
  return template.spec;
}

/** The generated defaulters of a PodTemplateSpec (SetDefaults_PodSpec and everything below it). */
export function setTemplateDefaults(obj: Pick<ApiObject, 'apiVersion' | 'kind'>, template: PodTemplateSpec): void {
  setPodSpecDefaults(obj, templatePodSpec(template));
}

/** DropDisabledTemplateFields. */
export function dropDisabledTemplateFields(template: PodTemplateSpec | undefined, oldTemplate?: PodTemplateSpec): void {
  if (template?.spec) dropDisabledPodSpecFields(template.spec, oldTemplate?.spec);
}
