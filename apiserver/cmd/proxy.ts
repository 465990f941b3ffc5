#!/usr/bin/env node
/**
 * orch-proxy: parses the command line and runs the front door until SIGTERM or SIGINT, which drain
 * it (see frontdoor/run-proxy.ts). Exit codes: 0 after a clean stop or --help, 1 when it fails, 2 for
 * a bad command line.
 */
import { runUntilSignal } from '../component-base/cli/run-until-signal.js';
import { proxyCommand } from '../frontdoor/options.js';

const options = proxyCommand.execute();

await runUntilSignal('orch-proxy', async () => {
  const { setLogComponent } = await import('../component-base/logs/logger.js');
  setLogComponent('orch-proxy');
  const { runProxy } = await import('../frontdoor/run-proxy.js');
  return runProxy(options);
});
