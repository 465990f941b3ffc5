/**
 * Upgrade requests (WebSocket, SPDY: kubectl exec, attach, port-forward) go through the same handler
 * chain as any other — authentication, authorization, the CONNECT handler — with their socket and head
 * attached to the request (endpoints/request/upgrade.ts). A request the chain answers without taking
 * the socket over (an error Status) is answered on the socket and the socket closed.
 *
 * HTTP servers keep sockets half-open, and a proxy that has stopped reading a socket (http-proxy
 * unpipes the client once the backend's side is done) would never see the client's FIN: the socket,
 * and the request with it, would stay open until the process exits. Once our side of the socket is
 * finished, what the client still sends is read and dropped so its close is seen, and a client that
 * never closes is cut off after FINISHED_GRACE_MS (Kubernetes closes both connections of an upgrade
 * as soon as either direction ends).
 */
import { ServerResponse, type IncomingMessage, type RequestListener } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import { setUpgrade } from '../endpoints/request/upgrade.js';

const FINISHED_GRACE_MS = 5_000;

export function newUpgradeListener(app: RequestListener): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    socket.once('finish', () => {
      socket.resume();
      const cutOff = setTimeout(() => socket.destroy(), FINISHED_GRACE_MS);
      cutOff.unref();
      socket.once('close', () => clearTimeout(cutOff));
    });
    setUpgrade(req, { socket, head });
    const res = new ServerResponse(req);
    res.assignSocket(socket as Socket);
    res.on('finish', () => {
      res.detachSocket(socket as Socket);
      socket.end();
    });
    app(req, res);
  };
}
