/** The clusterrole-aggregation-controller's descriptor: its names, role and start. */
import type { ControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const clusterRoleAggregationDescriptor: ControllerDescriptor = {
  name: 'clusterrole-aggregation-controller',
  aliases: ['clusterrole-aggregation'],
  defaultOn: true,
  serviceAccount: 'clusterrole-aggregation-controller',
  async start(ctx) {
    const { ClusterRoleAggregationController } = await import('./aggregation-controller.js');
    return new ClusterRoleAggregationController(ctx);
  },
};
