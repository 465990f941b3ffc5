/**
 * The bench's physical line for a GET: a bare Node HTTPS server (no framework, no auth, no storage)
 * answering every request with the same 1 KiB ConfigMap a GET of the bench returns. Run as a child
 * process (its CPU is measured apart from the client's): `node bare-tls-server.js PORT CERT KEY`.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { configMap, objectName } from './workload.js';

const [port, certFile, keyFile] = process.argv.slice(2);
if (!port || !certFile || !keyFile) {
  process.stderr.write('usage: bare-tls-server PORT CERT KEY\n');
  process.exit(2);
}
const body = Buffer.from(configMap(objectName(0)));
createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (req, res) => {
  req.resume();
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
  res.end(body);
}).listen(Number(port), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
