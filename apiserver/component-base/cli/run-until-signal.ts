/**
 * The life of a binary after its command line: start it, then stop it gracefully on SIGTERM or
 * SIGINT (once, however many signals come) and exit 0, or 1 when starting or stopping fails, with
 * `<name>: <reason>` on stderr.
 */

import { messageOf } from '../../api/thrown.js';

/** What a binary runs. */
export interface RunningComponent {
  /** Stops it gracefully. */
  close(): Promise<void>;
  /** Resolves true when it ended on its own and the process must exit 1 (a lost leader lease). */
  failed?: Promise<boolean>;
}

export async function runUntilSignal(name: string, start: () => Promise<RunningComponent>): Promise<void> {
  try {
    const running = await start();
    let stopping = false;
    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      running.close().then(
        () => process.exit(0),
        (err: unknown) => {
          process.stderr.write(`${name}: shutdown failed: ${messageOf(err)}\n`);
          process.exit(1);
        },
      );
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    if (running.failed && (await running.failed)) process.exit(1);
  } catch (err) {
    process.stderr.write(`${name}: ${messageOf(err)}\n`);
    process.exit(1);
  }
}
