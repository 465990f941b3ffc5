/**
 * The root CA publisher: every namespace has a ConfigMap `<short>-root-ca.crt` (orch-root-ca.crt;
 * kube-root-ca.crt for the k8s.io domain) whose `ca.crt` is the CA bundle that verifies the API
 * server, with a `<prefix>/description` annotation saying what it is for. A namespace is looked at
 * when it is added or is Active after a change, and when its ConfigMap is deleted or changed; the
 * ConfigMap is created or put back as it should be.
 */
import type { ApiDomain } from '../../apiserver/api/domain.js';
import type { ApiObject } from '../../apiserver/api/object.js';
import { deepCopy, jsonEqual } from '../../apiserver/api/object.js';
import { isApiError } from '../../apiserver/api/status.js';
import { hasStatusCause, NAMESPACE_TERMINATING_CAUSE } from '../client/api-errors.js';
import type { Informer } from '../informers/informer.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import { runQueueWorkers } from '../controllerutil/run-controller.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import { NAMESPACES } from '../controllerutil/resources.js';
import type { Namespace } from '../../apiserver/api/generated/types.js';

/** The ConfigMap's name: the system namespace's prefix + "-root-ca.crt". */
export function rootCaConfigMapName(domain: ApiDomain): string {
  return `${domain.systemNamespace.replace(/-system$/, '')}-root-ca.crt`;
}

/** The annotation that says what the ConfigMap is for. */
export function descriptionAnnotation(domain: ApiDomain): string {
  return `${domain.labelPrefix}/description`;
}

export const DESCRIPTION =
  'Holds the CA bundle that verifies the API server when it is reached through in-cluster endpoints. ' +
  'It is not meant for any other use, and other clusters may not provide it.';

export class RootCaCertPublisher implements Controller {
  private readonly namespaces: Informer<Namespace>;
  private readonly configMaps: Informer;
  readonly queue: WorkQueue<string>;
  private readonly name: string;
  private readonly annotation: string;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly rootCaPem: string,
  ) {
    this.name = rootCaConfigMapName(ctx.domain);
    this.annotation = descriptionAnnotation(ctx.domain);
    this.queue = ctx.newQueue('root_ca_cert_publisher');
    this.namespaces = ctx.informers.forResource(NAMESPACES);
    this.configMaps = ctx.informers.forResource({ group: '', version: 'v1', resource: 'configmaps' });
    this.namespaces.addEventHandler({
      onAdd: (ns) => this.queue.add(ns.metadata.name!),
      onUpdate: (_old, ns) => {
        if (ns.status?.phase === 'Active') this.queue.add(ns.metadata.name!);
      },
    });
    const mine = (cm: ApiObject) => cm.metadata.name === this.name;
    this.configMaps.addEventHandler({
      onDelete: (cm) => {
        if (mine(cm)) this.queue.add(cm.metadata.namespace!);
      },
      onUpdate: (old, cm) => {
        if (mine(cm) && !jsonEqual(old.data, cm.data)) this.queue.add(cm.metadata.namespace!);
      },
    });
  }

  run(signal: AbortSignal): Promise<void> {
    return runQueueWorkers(signal, this, {
      informers: [this.namespaces, this.configMaps],
      workers: 1,
      logger: this.ctx.logger,
      failure: 'publishing the root CA',
      itemField: 'namespace',
    });
  }

  async sync(namespace: string): Promise<void> {
    const configMaps = this.ctx.client.resource({ group: '', version: 'v1', resource: 'configmaps' }, namespace);
    const data = { 'ca.crt': this.rootCaPem };
    const cached = this.configMaps.indexer.get(`${namespace}/${this.name}`);
    if (!cached) {
      try {
        await configMaps.create({ metadata: { name: this.name, annotations: { [this.annotation]: DESCRIPTION } }, data });
      } catch (err) {
        if (isApiError(err, 'NotFound') || hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) return;
        throw err;
      }
      return;
    }
    if (jsonEqual(cached.data, data) && cached.metadata.annotations?.[this.annotation]) return;
    const cm = deepCopy(cached);
    cm.data = data;
    cm.metadata.annotations = { ...cm.metadata.annotations, [this.annotation]: DESCRIPTION };
    await configMaps.update(cm);
  }
}
