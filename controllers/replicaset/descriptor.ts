/** The replicaset and replicationcontroller controllers' descriptors: one controller over two kinds. */
import type { ControllerDescriptor } from '../controllerutil/controller-descriptor.js';
import { REPLICATION_CONTROLLER_KIND } from './replicated-kind.js';

export const replicaSetDescriptor: ControllerDescriptor = {
  name: 'replicaset-controller',
  aliases: ['replicaset'],
  defaultOn: true,
  serviceAccount: 'replicaset-controller',
  async start(ctx) {
    const { ReplicaSetController } = await import('./replicaset-controller.js');
    return new ReplicaSetController(ctx);
  },
};

export const replicationControllerDescriptor: ControllerDescriptor = {
  name: 'replicationcontroller-controller',
  aliases: ['replicationcontroller'],
  defaultOn: true,
  serviceAccount: 'replication-controller',
  async start(ctx) {
    const { ReplicaSetController } = await import('./replicaset-controller.js');
    return new ReplicaSetController(ctx, { kind: REPLICATION_CONTROLLER_KIND });
  },
};
