#!/usr/bin/env node
/**
 * orch-apiserver: parses the command line and runs the API server until SIGTERM or SIGINT: in this
 * process with --workers=1, else as the supervisor of that many worker processes (server/workers.ts),
 * each of which runs this same entry point.
 * Exit codes: 0 after a clean stop or --help, 1 when the server fails, 2 for a bad command line.
 */
import { apiserverCommand } from '../server/options.js';

const options = apiserverCommand.execute();

try {
  const { runServer } = await import('../server/run-server.js');
  const { isWorkerProcess, runWorker, runWorkers } = await import('../server/workers.js');
  const { newLogger, setLogComponent } = await import('../component-base/logs/logger.js');
  setLogComponent('orch-apiserver');
  const server = isWorkerProcess
    ? await runWorker(options)
    : options.workers > 1
      ? await runWorkers(options, newLogger(options))
      : await runServer(options);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`orch-apiserver: shutdown failed: ${(err as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} catch (err) {
  process.stderr.write(`orch-apiserver: ${(err as Error).message}\n`);
  process.exit(1);
}
