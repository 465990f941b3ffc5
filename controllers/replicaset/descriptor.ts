/** The replicaset and replicationcontroller controllers' descriptors: one controller over two kinds. */
import { newControllerDescriptor } from '../controllerutil/controller-descriptor.js';
import { REPLICATION_CONTROLLER_KIND } from './replicated-kind.js';

export const replicaSetDescriptor = newControllerDescriptor('replicaset-controller', {
  aliases: ['replicaset'],
  serviceAccount: 'replicaset-controller',
  async start(ctx) {
    const { ReplicaSetController } = await import('./replicaset-controller.js');
    return new ReplicaSetController(ctx);
  },
});

export const replicationControllerDescriptor = newControllerDescriptor('replicationcontroller-controller', {
  aliases: ['replicationcontroller'],
  serviceAccount: 'replication-controller',
  async start(ctx) {
    const { ReplicaSetController } = await import('./replicaset-controller.js');
    return new ReplicaSetController(ctx, { kind: REPLICATION_CONTROLLER_KIND });
  },
});
