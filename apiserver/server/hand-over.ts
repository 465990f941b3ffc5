/**
 * --workers: the supervisor accepts every connection on the secure port and hands it to a worker
 * over the worker's IPC channel (the socket's file descriptor goes along), as Node's cluster
 * round-robin does, but without the connection it strands: cluster.SCHED_RR keeps its copy of a
 * connection until the worker says it took it, and never closes it if the worker dies first.
 *
 * Here the supervisor also keeps its copy (`keepOpen`) until the worker acknowledges (a worker has
 * its own descriptor once the message is read; acknowledgements are batched per turn of its event
 * loop), and closes it then. When a worker exits (or its channel closes), the connections handed to
 * it and not acknowledged are settled at once: one whose message was never written to the channel
 * (it waited behind an unacknowledged one) goes to another worker; one that was written may already
 * have been read by the dead worker, so it is closed, and its client sees the connection end instead
 * of waiting forever.
 *
 * Each connection goes to the next serving worker in turn that has no hand-over unacknowledged (one
 * that is busy or stopped acknowledges late and is skipped), else to the one with the fewest. The
 * supervisor never reads a connection (pauseOnConnect): its cost is an accept, one IPC message and
 * a close. While no worker serves (all died and are restarting), connections are held for a while
 * and then closed.
 */
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { Server } from 'node:https';

/** How long a connection waits for a worker while none serves, and how many may wait. */
const HOLD_MS = 30_000;
const MAX_HELD = 1024;

type HandOverMessage =
  /** worker → supervisor: ready to serve. */
  | { orchConn: 'serve' }
  /** supervisor → worker: connections to come, on this port. */
  | { orchConn: 'port'; port: number }
  /** supervisor → worker: it could not listen. */
  | { orchConn: 'failed'; error: string }
  /** supervisor → worker, with the socket. */
  | { orchConn: 'take'; id: number }
  /** worker → supervisor: it has its own descriptor of these. */
  | { orchConn: 'taken'; ids: number[] };

function isHandOverMessage(m: unknown): m is HandOverMessage {
  return typeof m === 'object' && m !== null && typeof (m as { orchConn?: unknown }).orchConn === 'string';
}

/** What the dispatcher needs of a worker (a cluster Worker is one). */
export interface HandOverPeer {
  send(message: object, socket: Socket, options: { keepOpen: boolean }, callback: (err: Error | null) => void): boolean;
  send(message: object): boolean;
  isConnected(): boolean;
  on(event: 'message', listener: (m: unknown) => void): unknown;
}

export interface Dispatcher {
  /**
   * Handles the worker's hand-over messages: once it asks to serve, the supervisor listens (the
   * first time) and tells it the port, and the worker takes its turn. Resolves with the port.
   */
  attach(worker: HandOverPeer): Promise<number>;
  /** The worker exited or its channel closed: settles what it was handed and not acknowledged. */
  detach(worker: HandOverPeer): void;
  /** Stops accepting (connections not yet accepted are refused) and closes those held. */
  close(): void;
}

interface Handed {
  socket: Socket;
  /** Written to the channel (the worker may have it); until then it waits in Node's handle queue. */
  sent: boolean;
}

/** The supervisor's side: listens on `port`/`host` when the first worker asks to serve. */
export function newDispatcher(port: number, host: string, onError: (err: Error) => void): Dispatcher {
  const serving: HandOverPeer[] = [];
  const handed = new Map<HandOverPeer, Map<number, Handed>>();
  const held = new Map<Socket, NodeJS.Timeout>();
  let next = 0;
  let nextId = 1;
  let closed = false;
  let listening: Promise<number> | undefined;
  const listener: NetServer = createNetServer({ pauseOnConnect: true }, (socket) => handOver(socket));

  const listen = () =>
    (listening ??= new Promise<number>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(port, host, () => {
        listener.off('error', reject);
        // An accept failing later (EMFILE) is reported; the listener goes on.
        listener.on('error', onError);
        resolve((listener.address() as { port: number }).port);
      });
    }));

  /** The next worker in turn with nothing unacknowledged, else the one with the fewest. */
  const pick = (): HandOverPeer | undefined => {
    let best: HandOverPeer | undefined;
    let bestLoad = Number.POSITIVE_INFINITY;
    let at = 0;
    for (let i = 0; i < serving.length; i++) {
      const j = (next + i) % serving.length;
      const load = handed.get(serving[j])!.size;
      if (load < bestLoad) {
        [best, bestLoad, at] = [serving[j], load, j];
        if (load === 0) break;
      }
    }
    next = at + 1;
    return best;
  };

  const handOver = (socket: Socket): void => {
    if (socket.listenerCount('error') === 0) socket.on('error', () => {});
    const worker = pick();
    if (!worker) {
      hold(socket);
      return;
    }
    const id = nextId++;
    const entry: Handed = { socket, sent: false };
    const mine = handed.get(worker)!;
    mine.set(id, entry);
    worker.send({ orchConn: 'take', id } satisfies HandOverMessage, socket, { keepOpen: true }, (err) => {
      if (!err) {
        entry.sent = true;
        return;
      }
      // The channel is closed: the worker is gone, and this one never reached it.
      if (mine.delete(id)) {
        detach(worker);
        handOver(socket);
      }
    });
  };

  const hold = (socket: Socket): void => {
    if (closed || held.size >= MAX_HELD) {
      socket.destroy();
      return;
    }
    const timer = setTimeout(() => {
      held.delete(socket);
      socket.destroy();
    }, HOLD_MS);
    timer.unref();
    held.set(socket, timer);
  };

  const release = (): void => {
    const waiting = [...held];
    held.clear();
    for (const [socket, timer] of waiting) {
      clearTimeout(timer);
      handOver(socket);
    }
  };

  const detach = (worker: HandOverPeer): void => {
    const mine = handed.get(worker);
    if (!mine) return;
    handed.delete(worker);
    const i = serving.indexOf(worker);
    if (i >= 0) serving.splice(i, 1);
    for (const { socket, sent } of mine.values()) {
      if (sent) socket.destroy();
      else handOver(socket);
    }
  };

  const attach = (worker: HandOverPeer): Promise<number> =>
    new Promise((resolve, reject) => {
      worker.on('message', (m) => {
        if (!isHandOverMessage(m)) return;
        if (m.orchConn === 'taken') {
          const mine = handed.get(worker);
          for (const id of m.ids) {
            mine?.get(id)?.socket.destroy();
            mine?.delete(id);
          }
        } else if (m.orchConn === 'serve') {
          const failed = (error: string) => {
            if (worker.isConnected()) worker.send({ orchConn: 'failed', error } satisfies HandOverMessage);
          };
          if (closed) return failed('the server is shutting down');
          listen().then(
            (port) => {
              if (closed || !worker.isConnected()) return failed('the server is shutting down');
              worker.send({ orchConn: 'port', port } satisfies HandOverMessage);
              handed.set(worker, new Map());
              serving.push(worker);
              release();
              resolve(port);
            },
            (err: Error) => {
              failed(err.message);
              reject(err);
            },
          );
        }
      });
    });

  return {
    attach,
    detach,
    close: () => {
      if (closed) return;
      closed = true;
      if (listener.listening) listener.close();
      for (const [socket, timer] of held) {
        clearTimeout(timer);
        socket.destroy();
      }
      held.clear();
    },
  };
}

/**
 * The worker's side: asks to serve, and serves `server` on the connections handed over. Resolves
 * with the supervisor's port; rejects when it could not listen.
 */
export function serveHandedOver(
  server: Server,
  parent: { send(m: object): void; on(event: 'message', l: (m: unknown, socket?: Socket) => void): void },
): Promise<number> {
  let taken: number[] = [];
  const acknowledge = () => {
    const ids = taken;
    taken = [];
    parent.send({ orchConn: 'taken', ids } satisfies HandOverMessage);
  };
  return new Promise((resolve, reject) => {
    parent.on('message', (m, socket) => {
      if (!isHandOverMessage(m)) return;
      if (m.orchConn === 'take') {
        if (taken.push(m.id) === 1) setImmediate(acknowledge);
        if (!socket) return;
        // What net.Server sets on the sockets it accepts for an http(s) server.
        socket.setNoDelay(true);
        socket.allowHalfOpen = true;
        server.emit('connection', socket);
      } else if (m.orchConn === 'port') {
        // The http server tracks its connections (idle ones closed on shutdown, header and request
        // timeouts) from its 'listening' event; it never listens itself.
        server.emit('listening');
        resolve(m.port);
      } else if (m.orchConn === 'failed') {
        reject(new Error(m.error));
      }
    });
    parent.send({ orchConn: 'serve' } satisfies HandOverMessage);
  });
}
