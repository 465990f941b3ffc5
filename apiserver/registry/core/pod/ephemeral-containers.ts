/**
 * pods/ephemeralcontainers (read and written as the Pod, as Kubernetes serves it): only
 * spec.ephemeralContainers changes; new ones get the container defaults, the pod is validated as a
 * whole, and existing ephemeral containers may be neither removed nor changed
 * (ValidatePodEphemeralContainersUpdate). Static pods take none.
 */
import type { FieldError } from '../../../api/field-errors.js';
import { fieldPath, forbidden } from '../../../api/field-errors.js';
import { deepCopy } from '../../../api/object.js';
import { typedSubresource } from '../../../api/strategy.js';
import type { Pod } from '../../../api/generated/types.js';
import { semanticEqual } from '../../shared/pod-spec/semantic-equal.js';
import { applyPodDefaults, validatePod } from './strategy.js';
import { specDiff } from './update.js';

export const podEphemeralContainersSubresource = typedSubresource<Pod>({
  prepareForUpdate(pod, old) {
    const next = deepCopy(old);
    applyPodDefaults(pod);
    const spec = (next.spec ??= { containers: [] });
    const ephemeral = pod.spec?.ephemeralContainers;
    if (ephemeral === undefined) delete spec.ephemeralContainers;
    else spec.ephemeralContainers = deepCopy(ephemeral);
    return next;
  },
  validateUpdate(pod, old, ctx) {
    if (old.metadata.annotations?.[`${ctx.domain.labelPrefix}/config.mirror`] !== undefined) {
      return [forbidden(fieldPath(''), 'static pods do not support ephemeral containers')];
    }
    const errs: FieldError[] = validatePod(pod, ctx);
    const path = fieldPath('spec', 'ephemeralContainers');
    const next = new Map((pod.spec?.ephemeralContainers ?? []).map((c) => [c.name, c]));
    for (const prev of old.spec?.ephemeralContainers ?? []) {
      const now = next.get(prev.name);
      if (!now) errs.push(forbidden(path, `existing ephemeral containers "${prev.name}" may not be removed\n`));
      else if (!semanticEqual(prev, now)) {
        errs.push(
          forbidden(path.key(prev.name), `existing ephemeral containers "${prev.name}" may not be changed\n${specDiff(prev, now)}`),
        );
      }
    }
    return errs;
  },
});
