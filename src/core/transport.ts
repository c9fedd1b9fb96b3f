import NodeWebSocket from 'ws';

/** What a transport reports about one socket. */
export interface TransportHandlers {
  /** The link is up (socket.io `connect`). */
  onOpen(): void;
  /** The link went down after being up; `reason` is socket.io's (`transport close`, `io server disconnect`, ...). */
  onClose(reason: string): void;
  /** A connection attempt failed before the link came up. */
  onError(error: Error): void;
  /** The server pushed `event` with `payload` (an object or a JSON string). */
  onPush(event: string, payload: unknown): void;
}

/** One socket opened by a {@link Transport}. */
export interface TransportSocket {
  /** Emits `event`; `ack` receives the server's acknowledgement, if given. */
  emit(event: string, payload: unknown, ack?: (reply: unknown) => void): void;
  /** Closes the socket for good; no handler is called after this. */
  close(): void;
}

/**
 * Opens one socket to `url`. The connection core never reconnects a socket: it opens a new one, so that it
 * owns the schedule and can rotate hosts. Tests inject an in-process fake here.
 */
export type Transport = (url: string, handlers: TransportHandlers) => TransportSocket;

/** The engine.io path a Parley server serves socket.io on (WIRE-1). */
const PATH = '/socket.io/';

/** The one WebSocket surface both the browser's and the `ws` package's sockets offer. */
interface WebSocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  send(data: string): void;
  close(): void;
}

/** `WebSocket.OPEN`, the same number on every platform. */
const OPEN = 1;

const ignore = (): void => undefined;

/** Where the run of decimal digits (a packet's ack id) that starts at `from` ends. */
function afterDigits(text: string, from: number): number {
  let end = from;
  while (end < text.length && text.charCodeAt(end) >= 48 && text.charCodeAt(end) <= 57) end++;
  return end;
}

/**
 * Opens a WebSocket: the `ws` package under Node (Node 20 has no global WebSocket, and `ws` is the one socket.io's
 * own client uses there), the platform's elsewhere (browsers, React Native, mini-program shims).
 */
function openWebSocket(url: string): WebSocketLike {
  const isNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';
  if (isNode) return new NodeWebSocket(url, { perMessageDeflate: false }) as unknown as WebSocketLike;
  const Platform = (globalThis as { WebSocket?: new (url: string) => WebSocketLike }).WebSocket;
  if (!Platform) throw new Error('no WebSocket in this environment');
  return new Platform(url);
}

/** `http(s)://host[:port]` as the engine.io WebSocket URL of its socket.io endpoint; a path in `url` is not used. */
export function webSocketUrl(url: string): string {
  const parsed = new URL(url);
  const scheme = parsed.protocol === 'https:' || parsed.protocol === 'wss:' ? 'wss:' : 'ws:';
  return `${scheme}//${parsed.host}${PATH}?EIO=4&transport=websocket`;
}

/**
 * The socket.io v4 protocol over one WebSocket (engine.io v4, websocket transport only), as far as Parley's SDK
 * uses it: connect to the main namespace, events with or without an ack, acks, the server's heartbeat and
 * disconnect. No polling, no upgrade, no binary attachments, no reconnection: the connection core owns all of that.
 * It puts the same frames on the wire as `socket.io-client` with `transports: ['websocket']` (WIRE-8 in docs/protocol.md),
 * with a fraction of its work per packet: a busy client receives every message of every group it is in.
 */
export const socketIoTransport: Transport = (url, handlers) => {
  let socket: WebSocketLike | undefined;
  let closed = false;
  let connected = false;
  let nextAckId = 0;
  const acks = new Map<number, (reply: unknown) => void>();
  /** Emits made before the namespace is joined, sent once it is (as socket.io-client buffers them). */
  let buffered: string[] = [];
  let heartbeat: ReturnType<typeof setTimeout> | undefined;
  let heartbeatMs = 0;

  const stop = () => {
    closed = true;
    if (heartbeat !== undefined) clearTimeout(heartbeat);
    acks.clear();
    buffered = [];
    if (socket) {
      socket.onopen = socket.onclose = socket.onmessage = null;
      // An attempt closed during its handshake still reports an error, which `ws` throws when nobody listens.
      socket.onerror = ignore;
      if (socket instanceof NodeWebSocket) socket.removeAllListeners('message');
    }
  };
  /** The link is gone, for `reason`: before the namespace was joined it is a failed attempt, after it a close. */
  const lost = (reason: string) => {
    if (closed) return;
    const wasConnected = connected;
    stop();
    try {
      socket?.close();
    } catch {
      // Closing a socket that never opened may throw in some environments; it is gone either way.
    }
    if (wasConnected) handlers.onClose(reason);
    else handlers.onError(new Error(reason));
  };
  /** The server pings every `pingInterval`; silence past `pingInterval + pingTimeout` means the link is dead. */
  const armHeartbeat = () => {
    if (heartbeat !== undefined) clearTimeout(heartbeat);
    if (heartbeatMs > 0) heartbeat = setTimeout(() => lost('ping timeout'), heartbeatMs);
  };
  const send = (frame: string) => {
    if (socket?.readyState === OPEN) socket.send(frame);
  };

  const onEngineOpen = (text: string) => {
    try {
      const handshake = JSON.parse(text) as { pingInterval?: unknown; pingTimeout?: unknown };
      const interval = Number(handshake.pingInterval);
      const timeout = Number(handshake.pingTimeout);
      heartbeatMs = Number.isFinite(interval + timeout) ? interval + timeout : 0;
    } catch {
      return lost('parse error');
    }
    armHeartbeat();
    // CONNECT to the main namespace.
    send('40');
  };

  /** A socket.io packet (the engine.io message's payload): `<type>[<ack id>]<json>`. */
  const onPacket = (packet: string) => {
    const type = packet.charCodeAt(0) - 48;
    switch (type) {
      case 2: {
        // EVENT; an id the server may send asks for an ack the SDK never gives (pushes need none).
        const start = afterDigits(packet, 1);
        let args: unknown;
        try {
          args = JSON.parse(packet.slice(start));
        } catch {
          return lost('parse error');
        }
        if (Array.isArray(args) && typeof args[0] === 'string' && connected) handlers.onPush(args[0], args[1]);
        return;
      }
      case 3: {
        // ACK: `3<id>[...]`.
        const end = afterDigits(packet, 1);
        const id = Number(packet.slice(1, end));
        const ack = acks.get(id);
        if (!ack) return;
        acks.delete(id);
        let args: unknown;
        try {
          args = JSON.parse(packet.slice(end));
        } catch {
          return lost('parse error');
        }
        ack(Array.isArray(args) ? args[0] : undefined);
        return;
      }
      case 0: {
        // CONNECT acknowledged: the namespace is joined.
        if (connected) return;
        connected = true;
        const waiting = buffered;
        buffered = [];
        handlers.onOpen();
        for (const frame of waiting) send(frame);
        return;
      }
      case 1:
        return lost('io server disconnect');
      case 4: {
        // CONNECT_ERROR: a middleware refused the connection.
        let message = 'connect error';
        try {
          const body = JSON.parse(packet.slice(1)) as { message?: unknown };
          if (typeof body?.message === 'string') message = body.message;
        } catch {
          // Keep the generic message.
        }
        return lost(message);
      }
      default:
        // BINARY_EVENT and BINARY_ACK carry attachments, which Parley's protocol never uses.
        return;
    }
  };

  /** An engine.io packet: `<type><data>`; 0 open, 1 close, 2 ping, 4 message, 6 noop. */
  const onFrame = (data: unknown) => {
    if (closed) return;
    const text = typeof data === 'string' ? data : String(data);
    switch (text.charCodeAt(0)) {
      case 52: // '4' message
        return onPacket(text.slice(1));
      case 50: // '2' ping
        armHeartbeat();
        send('3');
        return;
      case 48: // '0' open
        return onEngineOpen(text.slice(1));
      case 49: // '1' close
        return lost('transport close');
      default:
        return;
    }
  };

  try {
    socket = openWebSocket(webSocketUrl(url));
  } catch (error) {
    closed = true;
    queueMicrotask(() => handlers.onError(error instanceof Error ? error : new Error(String(error))));
    return { emit: () => undefined, close: () => undefined };
  }
  if (socket instanceof NodeWebSocket) {
    // The `ws` package's own event: no MessageEvent made for each frame.
    socket.on('message', (data: Buffer, isBinary: boolean) => onFrame(isBinary ? '' : data.toString()));
  } else socket.onmessage = (event) => onFrame(event.data);
  socket.onerror = () => lost(connected ? 'transport error' : 'websocket error');
  socket.onclose = () => lost('transport close');

  return {
    emit(event, payload, ack) {
      if (closed) return;
      let frame: string;
      if (ack) {
        const id = nextAckId++;
        acks.set(id, ack);
        frame = `42${id}${JSON.stringify([event, payload])}`;
      } else frame = `42${JSON.stringify([event, payload])}`;
      if (connected) send(frame);
      else buffered.push(frame);
    },
    close() {
      if (closed) return;
      // DISCONNECT from the namespace, then the socket; as socket.io-client, nothing is reported for our own close.
      if (connected) send('41');
      stop();
      try {
        socket?.close();
      } catch {
        // Already closing.
      }
    },
  };
};
