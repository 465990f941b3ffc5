/**
 * The TTL controller: every Node carries `node.alpha.<prefix>/ttl`, the seconds kubelets may cache
 * Secrets and ConfigMaps, chosen by cluster size with Kubernetes' steps and hysteresis (0 s up to
 * 100 Nodes, 15 s up to 500, 30 s to 1000, 60 s to 2000, 300 s to 10000, 600 s beyond; a step is
 * left downwards only below the next smaller step's overlap).
 */
import type { Node } from '../../apiserver/api/generated/types.js';
import { isApiError } from '../../apiserver/api/status.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import type { Informer } from '../informers/informer.js';
import { runQueueWorkers } from '../controllerutil/run-controller.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import { NODES } from '../controllerutil/resources.js';

const STEPS = [
  { sizeMin: 0, sizeMax: 100, ttl: 0 },
  { sizeMin: 90, sizeMax: 500, ttl: 15 },
  { sizeMin: 450, sizeMax: 1000, ttl: 30 },
  { sizeMin: 900, sizeMax: 2000, ttl: 60 },
  { sizeMin: 1800, sizeMax: 10000, ttl: 300 },
  { sizeMin: 9000, sizeMax: Number.MAX_SAFE_INTEGER, ttl: 600 },
];

export class TtlController implements Controller {
  readonly nodes: Informer<Node>;
  readonly queue: WorkQueue<string>;
  readonly annotation: string;
  private step = 0;

  constructor(private readonly ctx: ControllerContext) {
    this.annotation = `node.alpha.${ctx.domain.labelPrefix}/ttl`;
    this.queue = ctx.newQueue('ttlcontroller');
    this.nodes = ctx.informers.forResource(NODES);
    this.nodes.addEventHandler({
      onAdd: (n) => {
        this.resize();
        this.queue.add(n.metadata.name!);
      },
      onUpdate: (_o, n) => this.queue.add(n.metadata.name!),
      onDelete: () => this.resize(),
    });
  }

  /** The TTL for the current number of Nodes; a step change re-checks every Node. */
  private resize(): void {
    const n = this.nodes.indexer.size;
    const before = this.step;
    while (n > STEPS[this.step].sizeMax && this.step < STEPS.length - 1) this.step++;
    while (n < STEPS[this.step].sizeMin && this.step > 0) this.step--;
    if (this.step !== before) for (const name of this.nodes.indexer.keys()) this.queue.add(name);
  }

  desiredTtl(): number {
    return STEPS[this.step].ttl;
  }

  run(signal: AbortSignal): Promise<void> {
    return runQueueWorkers(signal, this, {
      informers: [this.nodes],
      workers: 1,
      onSynced: () => this.resize(),
      logger: this.ctx.logger,
      failure: 'setting the node TTL',
      itemField: 'node',
    });
  }

  async sync(name: string): Promise<void> {
    const node = this.nodes.indexer.get(name);
    if (!node) return;
    const ttl = String(this.desiredTtl());
    if (node.metadata.annotations?.[this.annotation] === ttl) return;
    try {
      await this.ctx.client.resource(NODES).patch(name, { metadata: { annotations: { [this.annotation]: ttl } } });
    } catch (err) {
      if (!isApiError(err, 'NotFound')) throw err;
    }
  }
}
