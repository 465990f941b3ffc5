#!/usr/bin/env node
/**
 * orch-apiserver: parses the command line and runs the API server until SIGTERM or SIGINT.
 * Exit codes: 0 after a clean stop or --help, 1 when the server fails, 2 for a bad command line.
 */
import { helpRequested, OptionsError, parseServerOptions, printUsage, type ServerOptions } from '../server/options.js';

const argv = process.argv.slice(2);
let options: ServerOptions;
try {
  if (helpRequested(argv)) {
    printUsage();
    process.exit(0);
  }
  options = parseServerOptions(argv);
} catch (err) {
  if (!(err instanceof OptionsError)) throw err;
  process.stderr.write(`orch-apiserver: ${err.message}\n`);
  process.exit(2);
}

try {
  const { runServer } = await import('../server/run-server.js');
  const server = await runServer(options);
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
