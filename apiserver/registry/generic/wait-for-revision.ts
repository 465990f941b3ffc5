import type { Storage } from '../../storage/interfaces.js';
import * as status from '../../api/status.js';

/** How long a read of a too-new resourceVersion waits for the store to catch up (Kubernetes: 3 s). */
export const TOO_NEW_WAIT_MS = 3000;

/**
 * Resolves once the store's revision is at least `revision`; after `timeoutMs` answers 504 with
 * Kubernetes' "Too large resource version" error.
 */
export async function waitForRevision(storage: Storage, revision: number, timeoutMs = TOO_NEW_WAIT_MS): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 10; ; delay = Math.min(delay * 2, 200)) {
    const current = await storage.currentRevision();
    if (current >= revision) return current;
    if (Date.now() >= deadline) throw status.tooLargeResourceVersion(revision, current);
    await new Promise((r) => setTimeout(r, Math.min(delay, deadline - Date.now())));
  }
}
