/**
 * kube-controller-manager's ControllerExpectations: what a controller is still waiting to see after it
 * asked for creations or deletions. A controller that asked for 3 Pods does not ask again until its
 * informer has reported 3 new Pods (or the expectations expired after 5 minutes, in case a watch event
 * was lost), so a resync in between cannot create twice.
 */

/** How long expectations hold before a controller syncs anyway. */
export const EXPECTATIONS_TTL_MS = 5 * 60_000;

interface Expectation {
  add: number;
  del: number;
  /** When they were set. */
  at: number;
  /** Keys (namespace/name) of the Pods whose deletion is awaited (UIDTrackingControllerExpectations). */
  deleting: Set<string>;
}

export class Expectations {
  private readonly byController = new Map<string, Expectation>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Expect `add` creations and the deletion of `deleteKeys` for controller `key` (replacing older ones). */
  expect(key: string, add: number, deleteKeys: string[] = []): void {
    this.byController.set(key, { add, del: deleteKeys.length, at: this.now(), deleting: new Set(deleteKeys) });
  }

  /** One creation seen (or one that failed and will never be seen). */
  creationObserved(key: string): void {
    const e = this.byController.get(key);
    if (e) e.add--;
  }

  /** The deletion of `podKey` seen (or one that failed); counted once per Pod. */
  deletionObserved(key: string, podKey: string): void {
    const e = this.byController.get(key);
    if (!e?.deleting.delete(podKey)) return;
    e.del--;
  }

  /** Whether the controller may act: nothing awaited, everything seen, or the wait expired. */
  satisfied(key: string): boolean {
    const e = this.byController.get(key);
    if (!e) return true;
    return (e.add <= 0 && e.del <= 0) || this.now() - e.at > EXPECTATIONS_TTL_MS;
  }

  /** Forget the controller (it was deleted). */
  delete(key: string): void {
    this.byController.delete(key);
  }
}
