/**
 * The store's current revision for consistent reads, with concurrent askers sharing requests.
 *
 * A consistent read must see every write acknowledged before it arrived, so the revision it uses has
 * to come from a request that *started* after it arrived. An asker therefore joins the next request
 * to start: one is started at once when none is in flight; otherwise one is queued to start when the
 * in-flight one ends, and every asker arriving meanwhile shares it. Under load this costs one store
 * round trip per round trip, however many readers there are.
 */
export class RevisionBarrier {
  private inFlight: Promise<number> | undefined;
  private queued: Promise<number> | undefined;

  constructor(private readonly currentRevision: () => Promise<number>) {}

  /** A revision at least as new as every write acknowledged before this call. */
  current(): Promise<number> {
    if (this.queued) return this.queued;
    if (!this.inFlight) return this.start();
    const previous = this.inFlight;
    this.queued = previous.then(
      () => this.start(),
      () => this.start(),
    );
    return this.queued;
  }

  private start(): Promise<number> {
    this.queued = undefined;
    const request = this.currentRevision();
    this.inFlight = request;
    const clear = () => {
      if (this.inFlight === request) this.inFlight = undefined;
    };
    request.then(clear, clear);
    return request;
  }
}
