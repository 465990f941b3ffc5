// The image's HEALTHCHECK: exit 0 when ORCH_HEALTHCHECK_URL (default https://127.0.0.1:6443/livez, the
// local orch-apiserver) answers 200 within 4 s, else 1. It checks this container's own process, so
// the serving certificate is not verified (its name and CA are the deployment's).
import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';

const url = new URL(process.env.ORCH_HEALTHCHECK_URL ?? 'https://127.0.0.1:6443/livez');
const get = url.protocol === 'https:' ? httpsGet : httpGet;
const req = get(url, { rejectUnauthorized: false, timeout: 4000 }, (res) => {
  res.resume();
  process.exit(res.statusCode === 200 ? 0 : 1);
});
req.on('timeout', () => req.destroy(new Error('timed out')));
req.on('error', (err) => {
  process.stderr.write(`healthcheck: ${url}: ${err.message}\n`);
  process.exit(1);
});
