/**
 * The SDK against the real Parley server, in-process on an ephemeral port of 127.0.0.1. Reconnects use a short
 * backoff so that restarts take milliseconds; the schedule itself is covered by the unit tests.
 */
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createClient, ParleyError, type ConnectionStatus, type ParleyClient } from '../../src/index.js';
import { issueOtp } from '../../server/src/auth/otp.js';
import { OPEN_APP, SECURE_APP, defer, startServer, tempDir } from '../../server/test/helpers.js';

function client(url: string, appkey = SECURE_APP.appkey): ParleyClient {
  const c = createClient({ host: url, appkey, modules: ['im'], backoff: { initialDelay: 20, maxDelay: 100 } });
  defer(() => c.disconnect());
  return c;
}

function otpFor(userId: string, secretKey = SECURE_APP.secretKey): string {
  return issueOtp({ secretKey, userId, now: Date.now() }).otp;
}

function record(c: ParleyClient): ConnectionStatus[] {
  const seen: ConnectionStatus[] = [];
  c.on('connectionStatus', ({ status }) => seen.push(status));
  return seen;
}

function until(c: ParleyClient, status: ConnectionStatus): Promise<void> {
  return new Promise((resolve) => {
    if (c.getConnectionStatus() === status) return resolve();
    const off = c.on('connectionStatus', (change) => {
      if (change.status !== status) return;
      off();
      resolve();
    });
  });
}

describe('SDK against the server', () => {
  it('CONN-3 AUTH-2: connects with an otp the server issued, and round-trips a request', async () => {
    const { url } = await startServer();
    const c = client(url);
    const seen = record(c);
    await c.connect({ id: 'alice', data: { name: 'Alice' }, otp: otpFor('alice') });
    expect(seen).toEqual(['connecting', 'connected']);
    expect(c.sid).toEqual(expect.any(String));
    expect(c.permissions).toEqual({ read: true, write: true });
    const { roundTripMs, serverTime } = await c.ping();
    expect(roundTripMs).toBeGreaterThanOrEqual(0);
    expect(Math.abs(serverTime - Date.now())).toBeLessThan(5000);
  });

  it.each([
    ['a forged otp', () => otpFor('alice', 'not-the-secret'), 'Invalid otp'],
    ['an otp for another user', () => otpFor('bob'), 'Invalid otp'],
    ['no otp', () => undefined, 'otp is required.'],
    [
      'an expired otp',
      () => issueOtp({ secretKey: SECURE_APP.secretKey, userId: 'alice', now: 0, ttlMs: 1 }).otp,
      'otp has expired',
    ],
  ])('CONN-4 AUTH-2: %s ends in connect_failed with 401', async (_name, otp, content) => {
    const { url } = await startServer();
    const c = client(url);
    const token = otp();
    const error = await c.connect({ id: 'alice', ...(token ? { otp: token } : {}) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParleyError);
    expect(error).toMatchObject({ code: 401, content });
    expect(c.getConnectionStatus()).toBe('connect_failed');
  });

  it('AUTH-1: an unknown appkey is refused; a subscribe-only key cannot write', async () => {
    const { url } = await startServer();
    await expect(client(url, 'nope').connect({ id: 'a' })).rejects.toMatchObject({ code: 401 });
    const reader = client(url, OPEN_APP.subscribeKey);
    await reader.connect({ id: 'reader' });
    expect(reader.permissions).toEqual({ read: true, write: false });
  });

  it('CONN-5 AUTH-3: a server restart that keeps sessions gives reconnected with the same sid', async () => {
    const dir = tempDir();
    const sqlite = join(dir, 'parley.db');
    const first = await startServer({ sqlite });
    const c = client(first.url);
    const seen = record(c);
    await c.connect({ id: 'alice', otp: otpFor('alice') });
    const sid = c.sid;
    await first.server.close();
    await until(c, 'reconnecting');
    await startServer({ sqlite, port: first.port });
    await until(c, 'reconnected');
    expect(c.sid).toBe(sid);
    expect(seen).toEqual(['connecting', 'connected', 'reconnecting', 'reconnected']);
  });

  it('CONN-5 AUTH-3: a restart that lost the sessions gives expired_reconnected with a new sid', async () => {
    const first = await startServer();
    const c = client(first.url);
    const seen = record(c);
    await c.connect({ id: 'alice', otp: otpFor('alice') });
    const sid = c.sid;
    await first.server.close();
    await until(c, 'reconnecting');
    await startServer({ port: first.port });
    await until(c, 'expired_reconnected');
    expect(c.sid).not.toBe(sid);
    expect(seen).toEqual(['connecting', 'connected', 'reconnecting', 'expired_reconnected']);
  });

  it('CONN-14: an otp that expired during a long connection is replaced by the provider; what was sent meanwhile goes out', async () => {
    const dir = tempDir();
    const sqlite = join(dir, 'parley.db');
    const first = await startServer({ sqlite });
    const alice = client(first.url);
    const bob = client(first.url);
    const tokens: string[] = [];
    // The first otp has a second left, as one issued a day ago would.
    const provider = () => {
      const ttlMs = tokens.length === 0 ? 1_000 : undefined;
      tokens.push(issueOtp({ secretKey: SECURE_APP.secretKey, userId: 'alice', ttlMs }).otp);
      return Promise.resolve(tokens.at(-1) ?? '');
    };
    await alice.connect({ id: 'alice', otp: provider });
    await bob.connect({ id: 'bob', otp: otpFor('bob') });
    const sid = alice.sid;
    const received: string[] = [];
    bob.im.on('PRIVATE_MESSAGE_RECEIVED', (m) => received.push(m.messageId));
    await new Promise((resolve) => setTimeout(resolve, 1_100));

    await first.server.close();
    await until(alice, 'reconnecting');
    const message = alice.im.createTextMessage({ text: 'still here', to: { type: 'private', id: 'bob' } });
    const sent = alice.im.sendMessage({ message });
    await startServer({ sqlite, port: first.port });
    await until(alice, 'reconnected');
    expect(alice.sid).toBe(sid);
    expect(tokens).toHaveLength(2);
    await expect(sent).resolves.toMatchObject({ status: 'success' });
    await vi.waitFor(() => expect(received).toEqual([message.messageId]));
  });

  it('REQ-7: a request issued while the server is down succeeds once it is back', async () => {
    const first = await startServer();
    const c = client(first.url);
    await c.connect({ id: 'alice', otp: otpFor('alice') });
    await first.server.close();
    await until(c, 'reconnecting');
    const during = c.ping();
    const attempts: number[] = [];
    c.on('connecting', ({ attempts: n }) => attempts.push(n));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(attempts.length).toBeGreaterThan(1);
    await startServer({ port: first.port });
    await expect(during).resolves.toMatchObject({ serverTime: expect.any(Number) });
  });

  it('CONN-11: disconnect tells the server and ends disconnected; a new connect gets a new session', async () => {
    const { url, server } = await startServer({ apps: [OPEN_APP] });
    const c = client(url, OPEN_APP.appkey);
    await c.connect({ id: 'alice' });
    const sid = c.sid;
    const left = new Promise<void>((resolve) =>
      server.io.of('/').sockets.forEach((s) => s.once('disconnect', () => resolve())),
    );
    await c.disconnect();
    await left;
    expect(c.getConnectionStatus()).toBe('disconnected');
    await c.connect({ id: 'alice' });
    expect(c.sid).not.toBe(sid);
  });
});
