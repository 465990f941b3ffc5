/**
 * The serving flags of every binary that serves HTTPS (component-base's SecureServingOptions):
 * --secure-port and --bind-address, the serving certificate files and --cert-dir, declared once
 * with their types, checks and fields; each binary says what it serves and how its files are read.
 */
import { checkPort } from '../flag/checks.js';
import { flag } from '../flag/flag-table.js';
import { intValue, ipValue, stringValue } from '../flag/values.js';

/** A binary's wording of one serving flag: --help's and the README's. */
export interface ServingFlagText {
  usage: string;
  doc?: string;
  defaultDoc?: string;
}

/** --secure-port (0 picks a free port) and --bind-address. */
export function securePortFlags(defaultPort: number, serves: string, docs: { securePort?: string; bindAddress?: string } = {}) {
  return {
    securePort: flag({
      name: 'secure-port',
      type: intValue,
      default: defaultPort,
      usage: `The port on which to serve HTTPS ${serves}. 0 picks a free port.`,
      doc: docs.securePort,
      check: (port, name) => checkPort(name, port),
    }),
    bindAddress: flag({
      name: 'bind-address',
      type: ipValue,
      default: '0.0.0.0',
      usage: 'The IP address on which to listen for the --secure-port port.',
      doc: docs.bindAddress,
    }),
  };
}

/** --tls-cert-file and --tls-private-key-file, '' when not given. */
export function tlsFileFlags(cert: ServingFlagText, key: ServingFlagText) {
  return {
    tlsCertFile: flag({ name: 'tls-cert-file', type: stringValue, default: '', ...cert }),
    tlsPrivateKeyFile: flag({ name: 'tls-private-key-file', type: stringValue, default: '', ...key }),
  };
}

/** --cert-dir: where a self-signed serving certificate is generated; '' = the binary's default. */
export function certDirFlag(text: ServingFlagText) {
  return { certDir: flag({ name: 'cert-dir', type: stringValue, default: '', ...text }) };
}
