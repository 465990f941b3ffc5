/**
 * The bootstrap signer (kube-controller-manager's bootstrapsigner): the ConfigMap `cluster-info` in
 * the public namespace holds a `kubeconfig` (the cluster's CA data and server address; written when
 * missing, left as it is otherwise) and one `jws-kubeconfig-<token-id>` detached signature of it per
 * bootstrap token that may sign (usage-bootstrap-signing, not expired). Signatures of tokens that are
 * gone, expired or no longer signing are removed. Any change of the ConfigMap or of a token Secret
 * queues the one ConfigMap.
 */
import { stringify } from 'yaml';
import type { ConfigMap, Secret } from '../../apiserver/api/generated/types.js';
import { CONFIGMAPS, SECRETS } from '../controllerutil/resources.js';
import { deepCopy, jsonEqual } from '../../apiserver/api/object.js';
import { isApiError } from '../../apiserver/api/status.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import type { Informer } from '../informers/informer.js';
import { runQueueWorkers } from '../controllerutil/run-controller.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import { isBootstrapTokenSecret, signingToken } from './bootstrap-tokens.js';
import { computeDetachedSignature } from './jws.js';

export const CLUSTER_INFO = 'cluster-info';
export const KUBECONFIG_KEY = 'kubeconfig';
export const JWS_PREFIX = 'jws-kubeconfig-';

export interface BootstrapSignerOptions {
  /** The server address published in the kubeconfig (default: the controller manager's own). */
  server?: string;
  now?: () => Date;
}

/** The kubeconfig cluster-info publishes: only the cluster, as kubeadm writes it. */
export function clusterInfoKubeconfig(server: string, caPem: string): string {
  return stringify({
    apiVersion: 'v1',
    clusters: [{ cluster: { 'certificate-authority-data': Buffer.from(caPem).toString('base64'), server }, name: '' }],
    contexts: null,
    'current-context': '',
    kind: 'Config',
    preferences: {},
    users: null,
  });
}

export class BootstrapSigner implements Controller {
  private readonly configMaps: Informer<ConfigMap>;
  private readonly secrets: Informer<Secret>;
  readonly queue: WorkQueue<string>;
  private readonly now: () => Date;
  private readonly server: string;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly caPem: string,
    opts: BootstrapSignerOptions = {},
  ) {
    this.now = opts.now ?? (() => new Date());
    this.server = opts.server ?? ctx.client.config.server;
    this.queue = ctx.newQueue('bootstrap_signer_queue');
    this.configMaps = ctx.informers.forResource(CONFIGMAPS);
    this.secrets = ctx.informers.forResource(SECRETS);
    const onConfigMap = (cm: ConfigMap) => {
      if (cm.metadata.namespace === ctx.domain.publicNamespace && cm.metadata.name === CLUSTER_INFO) this.queue.add(CLUSTER_INFO);
    };
    this.configMaps.addEventHandler({ onAdd: onConfigMap, onUpdate: (_o, cm) => onConfigMap(cm), onDelete: onConfigMap });
    const onSecret = (secret: Secret) => {
      if (isBootstrapTokenSecret(secret, ctx.domain)) this.queue.add(CLUSTER_INFO);
    };
    this.secrets.addEventHandler({ onAdd: onSecret, onUpdate: (_o, s) => onSecret(s), onDelete: onSecret });
  }

  run(signal: AbortSignal): Promise<void> {
    return runQueueWorkers(signal, this, {
      informers: [this.configMaps, this.secrets],
      workers: 1,
      onSynced: () => this.queue.add(CLUSTER_INFO),
      logger: this.ctx.logger,
      failure: 'signing cluster-info',
      itemField: 'configMap',
    });
  }

  /** The data cluster-info should hold, given its current data. */
  private desiredData(current: Record<string, string>): Record<string, string> {
    const data: Record<string, string> = {};
    for (const [k, v] of Object.entries(current)) if (!k.startsWith(JWS_PREFIX)) data[k] = v;
    data[KUBECONFIG_KEY] ??= clusterInfoKubeconfig(this.server, this.caPem);
    const now = this.now();
    for (const secret of this.secrets.indexer.list()) {
      if (!isBootstrapTokenSecret(secret, this.ctx.domain)) continue;
      const token = signingToken(secret, now);
      if (token) data[`${JWS_PREFIX}${token.id}`] = computeDetachedSignature(data[KUBECONFIG_KEY], token.id, token.secret);
    }
    return data;
  }

  async sync(): Promise<void> {
    const namespace = this.ctx.domain.publicNamespace;
    const configMaps = this.ctx.client.resource(CONFIGMAPS, namespace);
    const cached = this.configMaps.indexer.get(`${namespace}/${CLUSTER_INFO}`);
    const current = cached?.data ?? {};
    const data = this.desiredData(current);
    if (!cached) {
      try {
        await configMaps.create({ metadata: { name: CLUSTER_INFO }, data });
      } catch (err) {
        if (!isApiError(err, 'AlreadyExists')) throw err; // the informer will bring it
      }
      return;
    }
    if (jsonEqual(current, data)) return;
    const cm = deepCopy(cached);
    cm.data = data;
    await configMaps.update(cm);
  }
}
