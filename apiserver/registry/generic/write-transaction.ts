/**
 * What one write undoes unless it is stored: the undo steps admission plugins recorded
 * (write-admission.ts) and the kind's hook transaction (store-hooks.ts). The store opens one per
 * write, starts it over on each compare-and-swap attempt, commits it once the write is stored, and
 * ends it in one `finally`, which reverts whatever was not committed — an error, a dry run (as
 * Kubernetes' store calls its finishCreate with success only after the write, and with failure
 * otherwise).
 */
import { NO_TRANSACTION, type HookTransaction } from './store-hooks.js';
import { newAdmissionRollback, type AdmissionRollback } from './write-admission.js';

export class WriteTransaction {
  #admission = newAdmissionRollback();
  #hooks: HookTransaction = NO_TRANSACTION;
  #committed = false;

  /** Where admission plugins record the undo steps of the current attempt. */
  get admission(): AdmissionRollback {
    return this.#admission;
  }

  /** The kind's hook transaction of the current attempt. */
  set hooks(txn: HookTransaction) {
    this.#hooks = txn;
  }

  /** Undoes the current attempt (hooks first, then admission): a retried write starts over. */
  async restart(): Promise<void> {
    await this.#hooks.revert();
    this.#hooks = NO_TRANSACTION;
    await this.#admission.revert();
    this.#admission = newAdmissionRollback();
  }

  /** The write is stored: the hooks finish, then admission's stored steps run. */
  async commit(): Promise<void> {
    this.#committed = true;
    await this.#hooks.commit();
    await this.#admission.commit();
  }

  /** Ends the write, in its `finally`: reverts the attempt unless it was committed. */
  async end(): Promise<void> {
    if (!this.#committed) await this.restart();
  }
}
