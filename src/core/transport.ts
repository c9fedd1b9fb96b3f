import { io } from 'socket.io-client';

/** What a transport reports about one socket. */
export interface TransportHandlers {
  /** The link is up (socket.io `connect`). */
  onOpen(): void;
  /** The link went down after being up; `reason` is socket.io's. */
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

/** The socket.io v4 transport over websocket, with socket.io's own reconnection turned off. */
export const socketIoTransport: Transport = (url, handlers) => {
  const socket = io(url, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    // The connection core runs its own connect timeout; keep socket.io's out of the way.
    timeout: 2 ** 31 - 1,
  });
  socket.on('connect', () => handlers.onOpen());
  socket.on('disconnect', (reason) => handlers.onClose(reason));
  socket.on('connect_error', (error) => handlers.onError(error));
  socket.onAny((event: string, payload: unknown) => handlers.onPush(event, payload));
  return {
    emit(event, payload, ack) {
      if (ack) socket.emit(event, payload, ack);
      else socket.emit(event, payload);
    },
    close() {
      socket.removeAllListeners();
      socket.offAny();
      socket.disconnect();
    },
  };
};
