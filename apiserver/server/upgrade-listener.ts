/**
 * Upgrade requests (WebSocket, SPDY: kubectl exec, attach, port-forward) go through the same handler
 * chain as any other — authentication, authorization, the CONNECT handler — with their socket and head
 * attached to the request (endpoints/request/upgrade.ts). A request the chain answers without taking
 * the socket over (an error Status) is answered on the socket and the socket closed.
 */
import { ServerResponse, type IncomingMessage, type RequestListener } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import { setUpgrade } from '../endpoints/request/upgrade.js';

export function newUpgradeListener(app: RequestListener): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    socket.on('error', () => socket.destroy());
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
