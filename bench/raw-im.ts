/**
 * The baseline for the IM benchmarks: a raw socket.io server that relays `publishIM` to the receiver's room (or
 * the group's room) and acks, with no validation and no storage.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { io, type Socket } from 'socket.io-client';

export async function startRawServer(): Promise<{ url: string; close(): Promise<void> }> {
  const http = createServer();
  const server = new Server(http, { path: '/socket.io' });
  let ts = 0;
  server.on('connection', (socket) => {
    const id = String(socket.handshake.query.id);
    void socket.join(`u:${id}`);
    socket.on('join', (group: string) => void socket.join(`g:${group}`));
    socket.on('publishIM', (p: { t: string; to: string; p: string; guid: string }, ack: (r: unknown) => void) => {
      const message = { t: p.t, r: p.to, s: id, i: p.guid, ts: ++ts, mt: 'text', p: p.p };
      server.to(p.t === 'group' ? `g:${p.to}` : `u:${p.to}`).emit('imMessage', message);
      ack({ code: 200, content: { timestamp: message.ts } });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await server.close();
    },
  };
}

/** A raw client of that server. */
export async function rawClient(url: string, id: string): Promise<Socket> {
  const socket = io(url, { transports: ['websocket'], forceNew: true, query: { id } });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return socket;
}
