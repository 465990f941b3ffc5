/**
 * The aggregation layer's flags, as kube-apiserver names them: the front-proxy client certificate
 * presented to extension servers (generated under --cert-dir, signed by a front-proxy CA of its own,
 * when not given) and --enable-aggregator-routing, on by default in orch: with no kube-proxy, a
 * Service's cluster IP leads nowhere, so requests go to an address of its Endpoints.
 */
import type { FlagSet } from '../component-base/flag/flag-set.js';
import { OptionsError } from '../component-base/flag/options-error.js';

export interface AggregatorSettings {
  proxyClientCertFile?: string;
  proxyClientKeyFile?: string;
  enableAggregatorRouting: boolean;
}

export class AggregatorOptions {
  proxyClientCertFile = '';
  proxyClientKeyFile = '';
  enableAggregatorRouting = true;

  addFlags(fs: FlagSet): void {
    fs.string(
      this,
      'proxyClientCertFile',
      'proxy-client-cert-file',
      'Client certificate used to prove the identity of the aggregator or kube-apiserver when it must call out during a request. This includes proxying requests to a user api-server and calling out to webhook admission plugins. If not given (with --proxy-client-key-file), one is generated in --cert-dir, signed by the front-proxy CA there (front-proxy-ca.crt).',
    );
    fs.string(
      this,
      'proxyClientKeyFile',
      'proxy-client-key-file',
      'Private key for the client certificate used to prove the identity of the aggregator or kube-apiserver when it must call out during a request.',
    );
    fs.bool(
      this,
      'enableAggregatorRouting',
      'enable-aggregator-routing',
      'Turns on aggregator routing requests to endpoints IP rather than cluster IP. On by default in orch, which has no kube-proxy to carry a cluster IP.',
    );
  }

  validate(): void {
    if (!!this.proxyClientCertFile !== !!this.proxyClientKeyFile) {
      throw new OptionsError('--proxy-client-cert-file and --proxy-client-key-file must be given together');
    }
  }

  complete(): AggregatorSettings {
    return {
      proxyClientCertFile: this.proxyClientCertFile || undefined,
      proxyClientKeyFile: this.proxyClientKeyFile || undefined,
      enableAggregatorRouting: this.enableAggregatorRouting,
    };
  }
}
