/**
 * The aggregation layer's flags, as kube-apiserver names them: the front-proxy client certificate
 * presented to extension servers (generated under --cert-dir, signed by a front-proxy CA of its own,
 * when not given) and --enable-aggregator-routing, on by default in orch: with no kube-proxy, a
 * Service's cluster IP leads nowhere, so requests go to an address of its Endpoints.
 */
import type { FlagSet } from '../component-base/flag/flag-set.js';
import { checkFlags, flag, flagValues } from '../component-base/flag/flag-table.js';
import { OptionsError } from '../component-base/flag/options-error.js';
import { boolValue, stringValue } from '../component-base/flag/values.js';

export interface AggregatorSettings {
  proxyClientCertFile?: string;
  proxyClientKeyFile?: string;
  enableAggregatorRouting: boolean;
}

/** The aggregator's flags, each declared once. */
export const AGGREGATOR_FLAGS = {
  proxyClientCertFile: flag({
    name: 'proxy-client-cert-file',
    type: stringValue,
    default: '',
    usage:
      'Client certificate used to prove the identity of the aggregator or kube-apiserver when it must call out during a request. This includes proxying requests to a user api-server and calling out to webhook admission plugins. If not given (with --proxy-client-key-file), one is generated in --cert-dir, signed by the front-proxy CA there (front-proxy-ca.crt).',
    doc: 'The client certificate orch presents to extension API servers (APIServices), with a front-proxy CA of its own when generated',
    defaultDoc: 'generated in `--cert-dir`',
  }),
  proxyClientKeyFile: flag({
    name: 'proxy-client-key-file',
    type: stringValue,
    default: '',
    usage:
      'Private key for the client certificate used to prove the identity of the aggregator or kube-apiserver when it must call out during a request.',
    doc: 'The key of `--proxy-client-cert-file`',
  }),
  enableAggregatorRouting: flag({
    name: 'enable-aggregator-routing',
    type: boolValue,
    default: true,
    usage:
      'Turns on aggregator routing requests to endpoints IP rather than cluster IP. On by default in orch, which has no kube-proxy to carry a cluster IP.',
    doc: "Send an APIService's requests to an address of its Service's Endpoints rather than its cluster IP (on: orch has no kube-proxy)",
  }),
};

export class AggregatorOptions {
  readonly values = flagValues(AGGREGATOR_FLAGS);

  addFlags(fs: FlagSet): void {
    fs.table(AGGREGATOR_FLAGS, this.values);
  }

  validate(): void {
    checkFlags(AGGREGATOR_FLAGS, this.values);
    if (!!this.values.proxyClientCertFile !== !!this.values.proxyClientKeyFile) {
      throw new OptionsError('--proxy-client-cert-file and --proxy-client-key-file must be given together');
    }
  }

  complete(): AggregatorSettings {
    const v = this.values;
    return {
      proxyClientCertFile: v.proxyClientCertFile || undefined,
      proxyClientKeyFile: v.proxyClientKeyFile || undefined,
      enableAggregatorRouting: v.enableAggregatorRouting,
    };
  }
}
