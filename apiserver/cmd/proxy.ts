#!/usr/bin/env node
/**
 * orch-proxy: parses the command line and runs the front door until SIGTERM or SIGINT, which drain
 * it (see frontdoor/run-proxy.ts). Exit codes: 0 after a clean stop or --help, 1 when it fails, 2 for
 * a bad command line.
 */
import { proxyCommand } from '../frontdoor/options.js';

const options = proxyCommand.execute();

try {
  const { setLogComponent } = await import('../component-base/logs/logger.js');
  setLogComponent('orch-proxy');
  const { runProxy } = await import('../frontdoor/run-proxy.js');
  const proxy = await runProxy(options);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    proxy.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`orch-proxy: shutdown failed: ${(err as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} catch (err) {
  process.stderr.write(`orch-proxy: ${(err as Error).message}\n`);
  process.exit(1);
}
