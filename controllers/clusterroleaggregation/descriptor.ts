/** The clusterrole-aggregation-controller's descriptor: its names, role and start. */
import { newControllerDescriptor } from '../controllerutil/controller-descriptor.js';

export const clusterRoleAggregationDescriptor = newControllerDescriptor('clusterrole-aggregation-controller', {
  aliases: ['clusterrole-aggregation'],
  serviceAccount: 'clusterrole-aggregation-controller',
  async start(ctx) {
    const { ClusterRoleAggregationController } = await import('./aggregation-controller.js');
    return new ClusterRoleAggregationController(ctx);
  },
});
