/**
 * WIRE-8: the SDK's socket.io transport against a real socket.io server, and frame for frame against socket.io-client
 * on a bare WebSocket server that records what each puts on the wire.
 */
import { createServer } from 'node:http';
import { createServer as createTcpServer, type Socket as TcpSocket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { io as socketIoClient } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { socketIoTransport, webSocketUrl, type TransportHandlers } from '../src/core/transport.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A socket.io server on an ephemeral loopback port, closed after the test. */
async function socketIoServer(setup: (io: Server) => void): Promise<string> {
  const http = createServer();
  const io = new Server(http, { path: '/socket.io' });
  setup(io);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => io.close());
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
}

/**
 * A bare WebSocket server that speaks just enough engine.io: the open packet (with these heartbeat settings), and
 * the namespace join unless told not to. Every frame a client sends is recorded.
 */
async function bareServer(options: { pingInterval?: number; pingTimeout?: number; join?: boolean } = {}) {
  const frames: string[] = [];
  const sockets: WebSocket[] = [];
  /** One per connection: resolves when its close handshake is over, so every frame sent before was read. */
  const closed: Array<Promise<void>> = [];
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  wss.on('connection', (ws) => {
    sockets.push(ws);
    closed.push(new Promise<void>((resolve) => ws.once('close', () => resolve())));
    const handshake = { sid: 'e1', upgrades: [], pingInterval: options.pingInterval ?? 25_000 };
    ws.send(`0${JSON.stringify({ ...handshake, pingTimeout: options.pingTimeout ?? 20_000, maxPayload: 1e6 })}`);
    ws.on('message', (data) => {
      const frame = (data as Buffer).toString();
      frames.push(frame);
      if (frame === '40' && options.join !== false) ws.send('40{"sid":"s1"}');
    });
  });
  cleanups.push(() => new Promise<void>((resolve) => wss.close(() => resolve())));
  const port = (wss.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, frames, sockets, closed };
}

/** Handlers that record what the transport reports, with a promise for the next report of each kind. */
function recorder() {
  const log: string[] = [];
  const pushes: Array<[string, unknown]> = [];
  const waiters: Array<{ kind: string; resolve: (detail: string) => void }> = [];
  const report = (kind: string, detail = '') => {
    log.push(detail ? `${kind}: ${detail}` : kind);
    for (const waiter of waiters.filter((w) => w.kind === kind)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(detail);
    }
  };
  const handlers: TransportHandlers = {
    onOpen: () => report('open'),
    onClose: (reason) => report('close', reason),
    onError: (error) => report('error', error.message),
    onPush: (event, payload) => {
      pushes.push([event, payload]);
      report('push', event);
    },
  };
  const next = (kind: string) => new Promise<string>((resolve) => waiters.push({ kind, resolve }));
  return { handlers, log, pushes, next };
}

/** A transport opened on `url`, closed after the test, once its namespace is joined. */
async function opened(url: string) {
  const r = recorder();
  const socket = socketIoTransport(url, r.handlers);
  cleanups.push(() => socket.close());
  await r.next('open');
  return { r, socket };
}

/** Resolves once `check` holds, polling each turn of the event loop (the test's own timeout bounds it). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

describe('WIRE-8: the SDK socket.io transport', () => {
  it('turns http(s) URLs into the engine.io WebSocket endpoint', () => {
    expect(webSocketUrl('http://127.0.0.1:3000')).toBe('ws://127.0.0.1:3000/socket.io/?EIO=4&transport=websocket');
    expect(webSocketUrl('https://chat.example.com')).toBe(
      'wss://chat.example.com/socket.io/?EIO=4&transport=websocket',
    );
  });

  it('joins the namespace, has its requests acked, and hands on pushes in order', async () => {
    const url = await socketIoServer((io) =>
      io.on('connection', (socket) => {
        socket.on('echo', (params: unknown, ack: (reply: unknown) => void) => {
          ack({ code: 200, content: params });
          socket.emit('first', { n: 1 });
          socket.emit('second', '{"n":2}');
        });
      }),
    );
    const { r, socket } = await opened(url);
    const replies: unknown[] = [];
    socket.emit('echo', { text: 'hi', ids: [1, 2] }, (reply) => replies.push(reply));
    await until(() => r.pushes.length === 2);
    expect(replies).toEqual([{ code: 200, content: { text: 'hi', ids: [1, 2] } }]);
    expect(r.pushes).toEqual([
      ['first', { n: 1 }],
      ['second', '{"n":2}'],
    ]);
    expect(r.log).toEqual(['open', 'push: first', 'push: second']);
  });

  it('puts the same frames on the wire as socket.io-client over websocket', async () => {
    const emitAll = (emit: (event: string, payload: unknown, ack?: (reply: unknown) => void) => void) => {
      emit('authorize', { appkey: 'k', userId: 'u1', mP: { GIM: null } }, () => undefined);
      emit('imAck', { publishGuid: 'g-1' });
      emit('publishIM', { t: 'group', to: 'g', p: '{"text":"引号\\""}', guid: 'g-2' }, () => undefined);
      emit('manualDisconnect', undefined);
    };
    const ours = await bareServer();
    const { socket } = await opened(ours.url);
    emitAll((event, payload, ack) => socket.emit(event, payload, ack));
    await until(() => ours.frames.length === 5);

    const theirs = await bareServer();
    const client = socketIoClient(theirs.url, { transports: ['websocket'], forceNew: true, reconnection: false });
    cleanups.push(() => void client.close());
    await new Promise<void>((resolve) => client.once('connect', () => resolve()));
    emitAll((event, payload, ack) => (ack ? client.emit(event, payload, ack) : client.emit(event, payload)));
    await until(() => theirs.frames.length === 5);

    expect(ours.frames).toEqual(theirs.frames);
    expect(ours.frames[0]).toBe('40');
  });

  it('sends what was emitted before the namespace was joined once it is, in order', async () => {
    const server = await bareServer();
    const r = recorder();
    const socket = socketIoTransport(server.url, r.handlers);
    cleanups.push(() => socket.close());
    socket.emit('one', 1);
    socket.emit('two', 2, () => undefined);
    await until(() => server.frames.length === 3);
    expect(server.frames).toEqual(['40', '42["one",1]', '420["two",2]']);
  });

  it('answers the server heartbeat, and reports a ping timeout when it stops', async () => {
    const server = await bareServer({ pingInterval: 40, pingTimeout: 40 });
    const { r } = await opened(server.url);
    const closed = r.next('close');
    server.sockets[0]?.send('2');
    await until(() => server.frames.includes('3'));
    expect(await closed).toBe('ping timeout');
    expect(r.log).toEqual(['open', 'close: ping timeout']);
  });

  it('reports a server disconnect and a dropped transport by socket.io reason', async () => {
    const url = await socketIoServer((io) =>
      io.on('connection', (socket) => {
        socket.on('kick', () => socket.disconnect(true));
        socket.on('drop', () => socket.conn.close());
      }),
    );
    for (const [event, reason] of [
      ['kick', 'io server disconnect'],
      ['drop', 'transport close'],
    ] as const) {
      const { r, socket } = await opened(url);
      const closed = r.next('close');
      socket.emit(event, null);
      expect(await closed).toBe(reason);
    }
  });

  it('fails an attempt that never joins: nobody listening, or a refusing middleware', async () => {
    const refusing = await socketIoServer((io) => io.use((_socket, next) => next(new Error('not today'))));
    const r1 = recorder();
    socketIoTransport(refusing, r1.handlers);
    expect(await r1.next('error')).toBe('not today');

    const gone = await bareServer();
    const port = new URL(gone.url).port;
    await cleanups.pop()?.();
    const r2 = recorder();
    socketIoTransport(`http://127.0.0.1:${port}`, r2.handlers);
    await r2.next('error');
    expect(r1.log).toEqual(['error: not today']);
    expect(r2.log).toHaveLength(1);
  });

  it('closes with a namespace goodbye and reports nothing after its own close', async () => {
    const server = await bareServer();
    const r = recorder();
    const socket = socketIoTransport(server.url, r.handlers);
    await r.next('open');
    const replies: unknown[] = [];
    socket.emit('never', null, (reply) => replies.push(reply));
    socket.close();
    socket.emit('after', null);
    await until(() => server.frames.includes('41'));
    server.sockets[0]?.send('42["late",1]');
    server.sockets[0]?.send('1');
    await server.closed[0];
    expect(server.frames).toEqual(['40', '420["never",null]', '41']);
    expect(r.log).toEqual(['open']);
    expect(replies).toEqual([]);
  });

  it('closes an attempt still waiting for its handshake without reporting or throwing', async () => {
    // A server that takes the connection and never answers the upgrade: the attempt stays in its handshake.
    const accepted: TcpSocket[] = [];
    const silent = createTcpServer((socket) => accepted.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          for (const socket of accepted) socket.destroy();
          silent.close(() => resolve());
        }),
    );
    const r = recorder();
    const socket = socketIoTransport(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`, r.handlers);
    await until(() => accepted.length === 1);
    socket.close();
    // The aborted handshake reports on the next ticks; an unhandled 'error' there would fail the run.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(r.log).toEqual([]);
  });

  it('drops a link that sends a malformed packet', async () => {
    const server = await bareServer();
    const { r } = await opened(server.url);
    const closed = r.next('close');
    server.sockets[0]?.send('42["broken"');
    expect(await closed).toBe('parse error');
  });
});
