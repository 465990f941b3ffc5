// Bundles the web console (apiserver/console-ui/) with esbuild into the folder the API server serves
// it from (dist/apiserver/server/console/assets/): one script, one stylesheet, the page. Run by
// `npm run build`, `npm start` and `npm test` after tsc, so a fresh clone's start and browser tests find it.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const src = join(root, 'apiserver', 'console-ui');
const out = join(root, 'dist', 'apiserver', 'server', 'console', 'assets');
mkdirSync(out, { recursive: true });
await build({
  entryPoints: { app: join(src, 'main.js'), style: join(src, 'style.css') },
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  outdir: out,
  logLevel: 'warning',
  legalComments: 'none',
});
copyFileSync(join(src, 'index.html'), join(out, 'index.html'));
