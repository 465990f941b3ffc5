/**
 * autoscaling: HorizontalPodAutoscaler, served as v2 (the stored form, the preferred version) and as v1,
 * which is converted to and from the stored v2 objects without loss (autoscaling/hpa/conversion.ts).
 */
import type { ResourceDeclaration } from '../../api/resource.js';
import { hpaV1Conversion } from '../autoscaling/hpa/conversion.js';
import { hpaV1Strategy, hpaV2Strategy, hpaV1StatusStrategy, hpaV2StatusStrategy } from '../autoscaling/hpa/strategy.js';
import { hpaV1Columns, hpaV2Columns } from '../autoscaling/hpa/columns.js';

const hpa: Omit<ResourceDeclaration, 'version' | 'schema'> = {
  kubernetesGroup: 'autoscaling',
  kind: 'HorizontalPodAutoscaler',
  plural: 'horizontalpodautoscalers',
  singular: 'horizontalpodautoscaler',
  shortNames: ['hpa'],
  categories: ['all'],
  namespaced: true,
  nameRule: 'dns-subdomain',
};

export const autoscalingResources: ResourceDeclaration[] = [
  {
    ...hpa,
    version: 'v2',
    schema: 'autoscaling.v2.HorizontalPodAutoscaler',
    strategy: hpaV2Strategy,
    subresources: { status: hpaV2StatusStrategy },
    columns: hpaV2Columns,
  },
  {
    ...hpa,
    version: 'v1',
    schema: 'autoscaling.v1.HorizontalPodAutoscaler',
    strategy: hpaV1Strategy,
    subresources: { status: hpaV1StatusStrategy },
    columns: hpaV1Columns,
    conversion: hpaV1Conversion,
  },
];
