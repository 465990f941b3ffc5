#!/usr/bin/env node
/**
 * orch-controller-manager: parses the command line and runs the controller manager until SIGTERM or
 * SIGINT. Exit codes: 0 after a clean stop or --help, 1 when it fails or loses its leader lease (so
 * that a supervisor restarts it as a candidate), 2 for a bad command line.
 */
import { controllerManagerCommand } from '../app/options.js';

const options = controllerManagerCommand.execute();

try {
  const { setLogComponent } = await import('../../apiserver/component-base/logs/logger.js');
  setLogComponent('orch-controller-manager');
  const { runControllerManager } = await import('../app/controller-manager.js');
  const manager = await runControllerManager(options);
  const stop = (): void => {
    manager.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`orch-controller-manager: shutdown failed: ${(err as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  if ((await manager.done) === 'lost') process.exit(1);
} catch (err) {
  process.stderr.write(`orch-controller-manager: ${(err as Error).message}\n`);
  process.exit(1);
}
