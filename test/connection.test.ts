import { describe, expect, it } from 'vitest';
import { ParleyError, type ConnectionStatus } from '../src/index.js';
import { TRANSITIONS } from '../src/core/status.js';
import { fakeSetup } from './support/setup.js';
import { useFakeClock } from './support/clock.js';

const tick = useFakeClock();

function expectLegalPath(path: string[]): void {
  for (let i = 1; i < path.length; i++) {
    const from = path[i - 1] as ConnectionStatus;
    expect(TRANSITIONS[from], `${from} -> ${path[i]}`).toContain(path[i]);
  }
}

describe('connection core', () => {
  it('CONN-3: connect goes disconnected -> connecting -> connected and authorizes with the user', async () => {
    const { client, server, path } = fakeSetup({ modules: ['im', 'PubSub'] });
    const done = client.connect({ id: 42, data: { name: 'Ann' }, otp: 'token' });
    expect(client.getConnectionStatus()).toBe('connecting');
    await tick();
    await done;
    expect(path()).toEqual(['disconnected', 'connecting', 'connected']);
    const [auth] = server.requests('authorize');
    expect(auth?.params).toMatchObject({
      appkey: 'app-key',
      userId: '42',
      userData: '{"name":"Ann"}',
      otp: 'token',
      sid: null,
      a: false,
      mP: { GIM: { imAck: false }, GWS: null },
    });
    expect(client.sid).toBe('sid-1');
    expect(client.permissions).toEqual({ read: true, write: true });
  });

  it('CONN-3: an anonymous connection sends no user id', async () => {
    const { client, server } = fakeSetup();
    const done = client.connect();
    await tick();
    await done;
    expect(server.requests('authorize')[0]?.params).toMatchObject({ userId: null, a: true });
  });

  it('CONN-4: a refused authorize ends in connect_failed with the server code and content, without retrying', async () => {
    const { client, server, statuses } = fakeSetup();
    server.refuse = { code: 401, content: 'Invalid otp' };
    const done = client.connect({ id: 'u1', otp: 'bad' });
    const outcome = done.catch((e: unknown) => e);
    await tick(60_000);
    const error = await outcome;
    expect(error).toBeInstanceOf(ParleyError);
    expect(error).toMatchObject({ code: 401, content: 'Invalid otp' });
    expect(client.getConnectionStatus()).toBe('connect_failed');
    expect(statuses.at(-1)).toMatchObject({ status: 'connect_failed', error: { code: 401, content: 'Invalid otp' } });
    expect(server.attempts).toHaveLength(1);
    expect(server.openSockets).toHaveLength(0);
  });

  it('CONN-4: connect is allowed again after connect_failed', async () => {
    const { client, server } = fakeSetup();
    server.refuse = { code: 401, content: 'Invalid otp' };
    await Promise.all([client.connect().catch(() => undefined), tick()]);
    server.refuse = undefined;
    const again = client.connect();
    await tick();
    await again;
    expect(client.getConnectionStatus()).toBe('connected');
  });

  it('CONN-5: a lost link reconnects with the old sid; the same sid gives reconnected', async () => {
    const { client, server, path, statuses } = fakeSetup();
    await Promise.all([client.connect(), tick()]);
    server.dropAll('transport close');
    expect(client.getConnectionStatus()).toBe('reconnecting');
    expect(statuses.at(-1)?.reason).toContain('transport close');
    await tick(5000);
    expect(path()).toEqual(['disconnected', 'connecting', 'connected', 'reconnecting', 'reconnected']);
    expect(server.requests('authorize')[1]?.params.sid).toBe('sid-1');
    expect(client.sid).toBe('sid-1');
  });

  it('CONN-5: a reconnect answered with a new sid gives expired_reconnected', async () => {
    const { client, server, path } = fakeSetup();
    await Promise.all([client.connect(), tick()]);
    server.forgetSessions();
    server.dropAll();
    await tick(5000);
    expect(path().slice(-2)).toEqual(['reconnecting', 'expired_reconnected']);
    expect(client.sid).toBe('sid-2');
    server.dropAll();
    await tick(5000);
    expect(path().slice(-2)).toEqual(['reconnecting', 'reconnected']);
    expectLegalPath(path());
  });

  it('CONN-13: a reconnect refused with 429 is tried again after the backoff; a first connect fails', async () => {
    const { client, server, path } = fakeSetup({ random: () => 0.5 });
    const busy = { code: 429, content: 'too many connections of this user on this server' };
    server.refuse = busy;
    await expect(Promise.all([client.connect(), tick()])).rejects.toMatchObject(busy);
    expect(client.getConnectionStatus()).toBe('connect_failed');
    server.refuse = undefined;
    await Promise.all([client.connect(), tick()]);
    server.refuse = busy;
    server.dropAll();
    await tick(20_000);
    expect(client.getConnectionStatus()).toBe('reconnecting');
    // Two connects, then one refused try after each backoff delay: 1 000, 2 000, 4 000, 5 000, 5 000 ms.
    expect(server.attempts.length).toBeGreaterThan(5);
    expect(server.openSockets).toHaveLength(0);
    server.refuse = undefined;
    await tick(5000);
    expect(path().slice(-2)).toEqual(['reconnecting', 'reconnected']);
    expectLegalPath(path());
  });

  it('CONN-13: a reconnect answered 500 is tried again; a reconnect refused with 401 ends in connect_failed', async () => {
    const { client, server, path } = fakeSetup({ random: () => 0.5 });
    await Promise.all([client.connect(), tick()]);
    server.refuse = { code: 500, content: 'Internal server error' };
    server.dropAll();
    await tick(10_000);
    expect(client.getConnectionStatus()).toBe('reconnecting');
    server.refuse = undefined;
    await tick(5000);
    expect(path().slice(-2)).toEqual(['reconnecting', 'reconnected']);
    server.refuse = { code: 401, content: 'otp has expired' };
    server.dropAll();
    await tick(5000);
    expect(client.getConnectionStatus()).toBe('connect_failed');
    expectLegalPath(path());
  });

  it('CONN-14: an otp provider is asked at connect, and again when a reconnect’s otp is refused; the sid is kept', async () => {
    const { client, server, path } = fakeSetup({ random: () => 0.5 });
    let issued = 0;
    const provider = () => Promise.resolve(`otp-${++issued}`);
    let valid = 'otp-1';
    server.acceptOtp = (otp) => otp === valid;
    await Promise.all([client.connect({ id: 'u1', otp: provider }), tick()]);
    expect(server.requests('authorize').map((r) => r.params.otp)).toEqual(['otp-1']);

    // Reconnected while it is still valid: the provider is not asked.
    server.dropAll();
    await tick(5000);
    expect(issued).toBe(1);
    // Expired meanwhile: refused once, a fresh one asked for, the same session resumed.
    valid = 'otp-2';
    server.dropAll();
    await tick(5000);
    expect(server.requests('authorize').map((r) => r.params.otp)).toEqual(['otp-1', 'otp-1', 'otp-1', 'otp-2']);
    expect(path().slice(-2)).toEqual(['reconnecting', 'reconnected']);
    expect(client.sid).toBe('sid-1');
    expectLegalPath(path());

    // A fresh one refused too is final, as a refused string otp is.
    valid = 'none';
    server.dropAll();
    await tick(5000);
    expect(
      server
        .requests('authorize')
        .map((r) => r.params.otp)
        .slice(-2),
    ).toEqual(['otp-2', 'otp-3']);
    expect(client.getConnectionStatus()).toBe('connect_failed');
  });

  it('CONN-14: a provider that fails ends a first connect with 401; while reconnecting it is asked again after the backoff', async () => {
    const { client, server } = fakeSetup({ random: () => 0.5 });
    const failing = () => Promise.reject(new Error('app server down'));
    await expect(Promise.all([client.connect({ id: 'u1', otp: failing }), tick()])).rejects.toMatchObject({
      code: 401,
      content: 'The otp provider failed: app server down',
    });
    expect(client.getConnectionStatus()).toBe('connect_failed');
    await expect(Promise.all([client.connect({ id: 'u1', otp: () => '' }), tick()])).rejects.toMatchObject({
      code: 401,
      content: 'The otp provider failed: no otp given',
    });

    let down = false;
    let asked = 0;
    const flaky = () => {
      asked += 1;
      return down ? Promise.reject(new Error('app server down')) : Promise.resolve(`otp-${asked}`);
    };
    await Promise.all([client.connect({ id: 'u1', otp: flaky }), tick()]);
    expect(asked).toBe(1);
    // otp-1 expires while the app server is down.
    server.acceptOtp = (otp) => otp !== 'otp-1';
    down = true;
    server.dropAll();
    await tick(10_000);
    expect(client.getConnectionStatus()).toBe('reconnecting');
    expect(asked).toBeGreaterThan(3);
    down = false;
    await tick(5000);
    expect(client.getConnectionStatus()).toBe('reconnected');
    expect(server.requests('authorize').at(-1)?.params.otp).toBe(`otp-${asked}`);
  });

  it('CONN-6: reconnect attempts never stop and their delays follow the backoff', async () => {
    const { client, server } = fakeSetup({ random: () => 0.5 });
    const delays: number[] = [];
    client.on('connecting', ({ delay }) => delays.push(delay));
    await Promise.all([client.connect(), tick()]);
    server.down = true;
    server.dropAll();
    await tick(200_000);
    // jitter 0 at random() = 0.5: 1000, 2000, 4000, then the 5000 cap for ever
    expect(delays.slice(0, 6)).toEqual([1000, 2000, 4000, 5000, 5000, 5000]);
    expect(delays.length).toBeGreaterThan(35);
    expect(client.getConnectionStatus()).toBe('reconnecting');
    server.down = false;
    await tick(5000);
    expect(client.getConnectionStatus()).toBe('reconnected');
    server.down = true;
    server.dropAll();
    await tick(0);
    expect(delays.at(-1)).toBe(1000);
  });

  it('CONN-6: onProgress reports the attempt count while connecting', async () => {
    const { client, server } = fakeSetup({ random: () => 0.5 });
    server.down = true;
    const progress: number[] = [];
    const done = client.connect({ onProgress: (n) => progress.push(n) });
    await tick(3000);
    // failures at 0, 1000 and 3000 ms
    expect(progress).toEqual([1, 2, 3]);
    expect(client.getConnectionStatus()).toBe('connecting');
    server.down = false;
    await tick(4000);
    await done;
    expect(client.getConnectionStatus()).toBe('connected');
  });

  it('CONN-7: hosts start at a random one and move to the next after each error', async () => {
    const hosts = ['h1.test', 'h2.test', 'h3.test'];
    const { client, server } = fakeSetup({ hosts, random: () => 0.5 });
    server.down = true;
    void client.connect().catch(() => undefined);
    await tick(20_000);
    expect(server.attempts.slice(0, 5)).toEqual([
      'http://h2.test',
      'http://h3.test',
      'http://h1.test',
      'http://h2.test',
      'http://h3.test',
    ]);
    await client.disconnect();
  });

  it('CONN-7: forceTLS and schemes decide the URL', () => {
    const { server, client } = fakeSetup({ hosts: ['x.test:1', 'ws://y.test', 'https://z.test'], forceTLS: true });
    void client.connect().catch(() => undefined);
    void server;
    const { server: s2, client: c2 } = fakeSetup({ hosts: ['ws://y.test'], random: () => 0 });
    void c2.connect().catch(() => undefined);
    expect(server.attempts[0]).toMatch(/^https:\/\//);
    expect(s2.attempts).toEqual(['http://y.test']);
  });

  it('CONN-8: an attempt that hangs is abandoned after the connect timeout', async () => {
    const { client, server } = fakeSetup({ hosts: ['h1.test', 'h2.test'], random: () => 0 });
    server.hang = true;
    void client.connect().catch(() => undefined);
    await tick(19_999);
    expect(server.attempts).toHaveLength(1);
    server.hang = false;
    await tick(1);
    await tick(1000);
    expect(server.attempts).toEqual(['http://h1.test', 'http://h2.test']);
    expect(client.getConnectionStatus()).toBe('connected');
  });

  it('CONN-9: the online signal retries at once instead of waiting for the backoff', async () => {
    const { client, server, goOnline } = fakeSetup({ random: () => 0.5 });
    await Promise.all([client.connect(), tick()]);
    server.down = true;
    server.dropAll();
    await tick(10_000);
    const before = server.attempts.length;
    server.down = false;
    goOnline();
    await tick(0);
    expect(server.attempts.length).toBe(before + 1);
    expect(client.getConnectionStatus()).toBe('reconnected');
  });

  it('CONN-10: connect while not disconnected fails with 408', async () => {
    const { client } = fakeSetup();
    await Promise.all([client.connect(), tick()]);
    await expect(client.connect()).rejects.toMatchObject({
      code: 408,
      content: "It is already connected, don't try again until disconnect() is called. ",
    });
  });

  it('CONN-11: disconnect says goodbye, closes the socket and ends disconnected', async () => {
    const { client, server, path } = fakeSetup();
    await Promise.all([client.connect(), tick()]);
    await client.disconnect();
    expect(server.requests('manualDisconnect')).toHaveLength(1);
    expect(server.openSockets).toHaveLength(0);
    expect(path().slice(-2)).toEqual(['disconnecting', 'disconnected']);
    await client.disconnect();
    expect(path().slice(-1)).toEqual(['disconnected']);
  });

  it('CONN-11: disconnect while connecting rejects the connect and stops retrying', async () => {
    const { client, server } = fakeSetup();
    server.down = true;
    const done = client.connect().catch((e: unknown) => e);
    await tick(3000);
    await client.disconnect();
    expect(await done).toMatchObject({ code: 409 });
    const attempts = server.attempts.length;
    await tick(60_000);
    expect(server.attempts.length).toBe(attempts);
    expect(client.getConnectionStatus()).toBe('disconnected');
  });

  it('CONN-12: every path taken is allowed by the transition table', async () => {
    const { client, server, path } = fakeSetup();
    server.refuse = { code: 401, content: 'no' };
    await Promise.all([client.connect().catch(() => undefined), tick()]);
    server.refuse = undefined;
    await Promise.all([client.connect(), tick()]);
    server.dropAll();
    await tick(5000);
    server.forgetSessions();
    server.dropAll();
    await tick(5000);
    await client.disconnect();
    expectLegalPath(path());
    expect(new Set(path())).toEqual(
      new Set([
        'disconnected',
        'connecting',
        'connect_failed',
        'connected',
        'reconnecting',
        'reconnected',
        'expired_reconnected',
        'disconnecting',
      ]),
    );
  });

  it('CONN-12: late events from a dropped socket are ignored', async () => {
    const { client, server } = fakeSetup();
    await Promise.all([client.connect(), tick()]);
    const old = server.openSockets[0];
    server.dropAll();
    await tick(5000);
    old?.handlers.onClose('late');
    old?.handlers.onOpen();
    expect(client.getConnectionStatus()).toBe('reconnected');
    expect(server.requests('authorize')).toHaveLength(2);
  });

  it('CONN-5: pushes reach listeners, JSON strings parsed', async () => {
    const { client, server } = fakeSetup();
    await Promise.all([client.connect(), tick()]);
    const got: unknown[] = [];
    client.connection.pushes.on('imMessage', (p) => got.push(p));
    server.push('imMessage', '{"i":"m1"}');
    server.push('imMessage', { i: 'm2' });
    server.push('imMessage', 'not json');
    expect(got).toEqual([{ i: 'm1' }, { i: 'm2' }, 'not json']);
  });
});
