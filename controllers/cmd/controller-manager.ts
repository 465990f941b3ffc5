#!/usr/bin/env node
/**
 * orch-controller-manager: parses the command line and runs the controller manager until SIGTERM or
 * SIGINT. Exit codes: 0 after a clean stop or --help, 1 when it fails or loses its leader lease (so
 * that a supervisor restarts it as a candidate), 2 for a bad command line.
 */
import { runUntilSignal } from '../../apiserver/component-base/cli/run-until-signal.js';
import { controllerManagerCommand } from '../app/options.js';

const options = controllerManagerCommand.execute();

await runUntilSignal('orch-controller-manager', async () => {
  const { setLogComponent } = await import('../../apiserver/component-base/logs/logger.js');
  setLogComponent('orch-controller-manager');
  const { runControllerManager } = await import('../app/controller-manager.js');
  const manager = await runControllerManager(options);
  return { close: () => manager.stop(), failed: manager.done.then((end) => end === 'lost') };
});
