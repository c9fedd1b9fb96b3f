/**
 * IM test support: named users on the open app, sending messages, and watching pushes. "Nothing was pushed" is
 * checked after a ping round trip on the watching socket: the server writes a push before the ack of any later
 * request on that connection, so by the ping's ack every push already emitted has arrived.
 */
import { randomUUID } from 'node:crypto';
import type { Socket as ClientSocket } from 'socket.io-client';
import { expect } from 'vitest';
import type { ParleyServer } from '../src/server.js';
import { authorizeParams, connect, request } from './helpers.js';

/** A socket authorized as `userId` (on the open app unless `overrides` say otherwise). */
export async function login(
  url: string,
  userId: string,
  overrides: Record<string, unknown> = {},
): Promise<ClientSocket> {
  const socket = await connect(url);
  const reply = await request(
    socket,
    'authorize',
    authorizeParams({ userId, userData: JSON.stringify({ name: userId }), ...overrides }),
  );
  expect(reply).toMatchObject({ code: 200 });
  return socket;
}

/** A 32-hex message id, like the reference's uuid v1 without dashes. */
export function guid(): string {
  return randomUUID().replace(/-/g, '');
}

/** `publishIM` params with defaults: a text message. */
export function publishParams(to: string | number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    mt: 'text',
    to,
    d: '{}',
    p: JSON.stringify({ text: 'hello' }),
    t: 'private',
    guid: guid(),
    retried: 0,
    ...overrides,
  };
}

/** Sends a text and returns its server timestamp. */
export async function send(
  socket: ClientSocket,
  to: string | number,
  overrides: Record<string, unknown> = {},
): Promise<number> {
  const ack = await request(socket, 'publishIM', publishParams(to, overrides));
  expect(ack).toMatchObject({ code: 200 });
  return (ack['content'] as { timestamp: number }).timestamp;
}

/** Everything `socket` receives as `event` from now on. */
export function collect<T = Record<string, unknown>>(socket: ClientSocket, event: string): T[] {
  const got: T[] = [];
  socket.on(event, (payload: T) => got.push(payload));
  return got;
}

/** The next `event` push `socket` receives. */
export function next<T = Record<string, unknown>>(socket: ClientSocket, event: string): Promise<T> {
  return new Promise((resolve) => socket.once(event, resolve));
}

/** Acknowledges every chat message `socket` is pushed from now on, as the reference client does (IM-23, IM-24). */
export function acking(socket: ClientSocket): ClientSocket {
  socket.on('imMessage', (message: { i?: string }) => socket.emit('imAck', { publishGuid: message.i }));
  return socket;
}

/** Resolves once every push the server emitted to `socket` so far has arrived (see the file comment). */
export async function settled(...sockets: ClientSocket[]): Promise<void> {
  for (const socket of sockets) expect(await request(socket, 'PARLEY_PING')).toMatchObject({ code: 200 });
}

/** The `content` of a successful request, failing the test on anything else. */
export async function content<T = unknown>(socket: ClientSocket, event: string, params?: unknown): Promise<T> {
  const ack = await request(socket, event, params);
  expect(ack, `${event} ack`).toMatchObject({ code: 200 });
  return ack['content'] as T;
}

/** Closes `socket` and resolves once the server has handled the disconnect and the work it started. */
export async function leave(server: ParleyServer, socket: ClientSocket): Promise<void> {
  const id = socket.id;
  socket.close();
  while (id !== undefined && server.io.sockets.sockets.has(id)) await new Promise((r) => setTimeout(r, 5));
  await server.gateway.drain();
}

/**
 * Sends 40 messages one at a time, and while each is being stored asks `watcher` for a history page: the ids of the
 * messages a page held before `watcher` heard their push (IM-8, CS-8: there should be none). Resolves once every
 * push has arrived; `pushes` is how many there were.
 */
export async function pagesBeforePushes(
  watcher: ClientSocket,
  send: (round: number) => Promise<unknown>,
  historyParams: Record<string, unknown>,
): Promise<{ early: string[]; pushes: number }> {
  const pushed = new Set<string>();
  watcher.on('imMessage', (m: { i: string }) => pushed.add(m.i));
  const early: string[] = [];
  for (let round = 0; round < 40; round++) {
    // The page is asked for while the message is being stored: it may or may not hold it, but never before its push.
    const sending = send(round);
    await new Promise((resolve) => setTimeout(resolve, round % 4));
    const page = await content<{ messages: Array<{ i: string }> }>(watcher, 'IM_HISTORY', {
      ...historyParams,
      limit: 1,
    });
    early.push(...page.messages.filter((m) => !pushed.has(m.i)).map((m) => m.i));
    await sending;
  }
  await settled(watcher);
  return { early, pushes: pushed.size };
}
