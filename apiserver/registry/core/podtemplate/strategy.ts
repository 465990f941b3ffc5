/** core v1 PodTemplate: the template's pod defaults and ValidatePodTemplate(Update) — a valid template. */
import { fieldPath } from '../../../api/field-errors.js';
import { typedStrategy } from '../../../api/strategy.js';
import type { PodTemplate } from '../../../api/generated/types.js';
import { dropDisabledTemplateFields, setTemplateDefaults, templateOf } from '../../shared/pod-spec/template.js';
import { validatePodTemplateSpec } from '../../shared/pod-spec/pod-spec.js';

export const podTemplateStrategy = typedStrategy<PodTemplate>({
  applyDefaults: (pt) => setTemplateDefaults(pt, templateOf(pt)),
  prepareForCreate: (pt) => dropDisabledTemplateFields(pt.template),
  prepareForUpdate: (pt, old) => dropDisabledTemplateFields(pt.template, old.template),
  validate: (pt, ctx) => validatePodTemplateSpec(pt.template, fieldPath('template'), { domain: ctx.domain }),
  validateUpdate: (pt, _old, ctx) => validatePodTemplateSpec(pt.template, fieldPath('template'), { domain: ctx.domain }),
});
