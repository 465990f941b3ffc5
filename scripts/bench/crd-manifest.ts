/** The bench's CustomResourceDefinitions: namespaced, one version (v1) served and stored. */

/** What a CRD calls its objects; the CRD's name is `<plural>.<group>`. */
export interface CrdNames {
  plural: string;
  singular?: string;
  kind: string;
}

/** The CRD of `group`'s kind `names`, objects checked against `openAPIV3Schema`; `apiextensions`: the domain's apiextensions group. */
export function namespacedCrd(apiextensions: string, group: string, names: CrdNames, openAPIV3Schema: Record<string, unknown>) {
  return {
    apiVersion: `${apiextensions}/v1`,
    kind: 'CustomResourceDefinition',
    metadata: { name: `${names.plural}.${group}` },
    spec: { group, scope: 'Namespaced', names, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema } }] },
  };
}
