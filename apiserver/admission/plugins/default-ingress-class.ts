/**
 * DefaultIngressClass: an Ingress created without spec.ingressClassName and without the legacy
 * `<prefix>/ingress.class` annotation gets the default IngressClass
 * (`ingressclass.<prefix>/is-default-class: "true"`). Several defaults: the newest wins with
 * --api-domain=k8s.io (Kubernetes ≥ 1.26), the create is refused in the default domain (the seed;
 * Kubernetes < 1.26, default-class.ts).
 */
import type { MutatingPlugin, PluginFactory } from '../interfaces.js';
import { admissionForbidden } from '../errors.js';
import { defaultClasses, manyDefaultsRefusal } from '../default-class.js';
import type { Ingress } from '../../api/generated/types.js';
import { INGRESS_CLASSES, isResource, kubeResourceOf, writtenObject } from '../resources.js';

const INGRESSES = kubeResourceOf<Ingress>({ group: 'networking.k8s.io', resource: 'ingresses' });

export const newDefaultIngressClass: PluginFactory = ({ domain, reader }): MutatingPlugin => {
  const defaultKey = `ingressclass.${domain.labelPrefix}/is-default-class`;
  const legacyAnnotation = `${domain.labelPrefix}/ingress.class`;
  return {
    name: 'DefaultIngressClass',
    handles: (op) => op === 'CREATE',
    handlesResource: (r) => isResource(r, INGRESSES),
    async admit(a) {
      const ing = writtenObject(a, INGRESSES);
      if (!ing) return;
      if (ing.spec?.ingressClassName !== undefined && ing.spec.ingressClassName !== null) return;
      if (ing.metadata.annotations?.[legacyAnnotation] !== undefined) return;
      const found = defaultClasses(await reader.list(INGRESS_CLASSES, ''), (c) => c.metadata.annotations?.[defaultKey] === 'true');
      const refusal = manyDefaultsRefusal(domain, found, 'IngressClasses');
      if (refusal) throw admissionForbidden(a, refusal);
      const def = found.chosen;
      if (!def) return;
      ing.spec = { ...ing.spec, ingressClassName: def.metadata.name };
    },
  };
};
