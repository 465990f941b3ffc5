/**
 * DefaultIngressClass: an Ingress created without spec.ingressClassName and without the legacy
 * `<prefix>/ingress.class` annotation gets the default IngressClass
 * (`ingressclass.<prefix>/is-default-class: "true"`; the newest wins when several are).
 */
import type { MutatingPlugin, PluginFactory } from '../interfaces.js';
import { pickDefaultClass } from '../default-class.js';
import { INGRESS_CLASSES, isResource } from '../resources.js';

const INGRESSES = { group: 'networking.k8s.io', resource: 'ingresses' };

export const newDefaultIngressClass: PluginFactory = ({ domain, reader }): MutatingPlugin => {
  const defaultKey = `ingressclass.${domain.labelPrefix}/is-default-class`;
  const legacyAnnotation = `${domain.labelPrefix}/ingress.class`;
  return {
    name: 'DefaultIngressClass',
    handles: (op) => op === 'CREATE',
    handlesResource: (r) => isResource(r, INGRESSES),
    async admit(a) {
      if (!isResource(a.resource, INGRESSES) || a.subresource || !a.object) return;
      const ing = a.object as { metadata: { annotations?: Record<string, string> }; spec?: { ingressClassName?: string | null } };
      if (ing.spec?.ingressClassName !== undefined && ing.spec.ingressClassName !== null) return;
      if (ing.metadata.annotations?.[legacyAnnotation] !== undefined) return;
      const def = pickDefaultClass(await reader.list(INGRESS_CLASSES, ''), (c) => c.metadata.annotations?.[defaultKey] === 'true');
      if (!def) return;
      ing.spec = { ...ing.spec, ingressClassName: def.metadata.name };
    },
  };
};
