#!/usr/bin/env node
/**
 * orch-apiserver: parses the command line and runs the API server until SIGTERM or SIGINT: in this
 * process with --workers=1, else as the supervisor of that many worker processes (server/workers.ts),
 * each of which runs this same entry point.
 * Exit codes: 0 after a clean stop or --help, 1 when the server fails, 2 for a bad command line.
 */
import { runUntilSignal } from '../component-base/cli/run-until-signal.js';
import { apiserverCommand } from '../server/options.js';

const options = apiserverCommand.execute();

await runUntilSignal('orch-apiserver', async () => {
  const { runServer } = await import('../server/run-server.js');
  const { isWorkerProcess, runWorker, runWorkers } = await import('../server/workers.js');
  const { newLogger, setLogComponent } = await import('../component-base/logs/logger.js');
  setLogComponent('orch-apiserver');
  if (isWorkerProcess) return runWorker(options);
  return options.workers > 1 ? runWorkers(options, newLogger(options)) : runServer(options);
});
