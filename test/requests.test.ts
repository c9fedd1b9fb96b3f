import { describe, expect, it, vi } from 'vitest';
import { ParleyError } from '../src/index.js';
import { NO_REPLY } from './support/fake-server.js';
import { fakeSetup } from './support/setup.js';
import { useFakeClock } from './support/clock.js';

const tick = useFakeClock();

async function connected(options: Parameters<typeof fakeSetup>[0] = {}) {
  const setup = fakeSetup({ random: () => 0.5, ...options });
  await Promise.all([setup.client.connect(), tick()]);
  return setup;
}

describe('request manager', () => {
  it('REQ-1: requests made while connecting are buffered and sent in order once authorized', async () => {
    const { client, server } = fakeSetup();
    server.handle('echo', (params) => ({ code: 200, content: params.n }));
    const connecting = client.connect();
    const results = [1, 2, 3].map((n) =>
      client.connection.requests.send({ event: 'echo', params: { n } }).then((ack) => ack.content),
    );
    expect(server.requests('echo')).toHaveLength(0);
    await tick();
    await connecting;
    expect(await Promise.all(results)).toEqual([1, 2, 3]);
    expect(server.requests('echo').map((r) => r.params.n)).toEqual([1, 2, 3]);
    const order = server.received.map((r) => r.event);
    expect(order.indexOf('authorize')).toBeLessThan(order.indexOf('echo'));
  });

  it('REQ-2: an un-acked request is re-emitted every single timeout, then fails with 408', async () => {
    const { client, server } = await connected();
    server.handle('slow', () => NO_REPLY);
    const outcome = client.connection.requests
      .send({ event: 'slow', params: {}, kind: 'request' })
      .catch((e: unknown) => e);
    await tick(1699);
    expect(server.requests('slow')).toHaveLength(1);
    await tick(1);
    expect(server.requests('slow')).toHaveLength(2);
    await tick(12_000);
    const error = await outcome;
    expect(error).toBeInstanceOf(ParleyError);
    expect(error).toMatchObject({ code: 408, content: 'Host unreachable or timeout' });
    // 0, 1700, ..., 10200: seven emits before the 12 000 ms total
    expect(server.requests('slow')).toHaveLength(8);
  });

  it('REQ-3: queries resend every 2500 ms', async () => {
    const { client, server } = await connected();
    server.handle('q', () => NO_REPLY);
    const outcome = client.connection.requests.send({ event: 'q', params: {}, kind: 'query' }).catch((e: unknown) => e);
    await tick(2499);
    expect(server.requests('q')).toHaveLength(1);
    await tick(1);
    expect(server.requests('q')).toHaveLength(2);
    await tick(10_000);
    expect(await outcome).toMatchObject({ code: 408 });
    expect(server.requests('q')).toHaveLength(5);
  });

  it('REQ-3: authorize resends every 1700 ms and keeps trying', async () => {
    const { client, server } = fakeSetup();
    server.silentAuthorize = true;
    void client.connect().catch(() => undefined);
    await tick(1700 * 10);
    expect(server.requests('authorize')).toHaveLength(11);
    expect(client.getConnectionStatus()).toBe('connecting');
    server.silentAuthorize = false;
    await tick(1700);
    expect(client.getConnectionStatus()).toBe('connected');
  });

  it('REQ-3: authorize gives up after 24 hours with 408', async () => {
    const { client, server } = fakeSetup();
    server.silentAuthorize = true;
    const outcome = client.connect().catch((e: unknown) => e);
    await tick(86_400_000);
    expect(await outcome).toMatchObject({ code: 408, content: 'Host unreachable or timeout' });
    expect(client.getConnectionStatus()).toBe('connect_failed');
  });

  it('REQ-4: success is code or resultCode 200; a failure rejects with its code and content', async () => {
    const { client, server } = await connected();
    server.handle('a', () => ({ resultCode: '200', content: 'yes' }));
    server.handle('b', () => ({ resultCode: 400, content: 'text is empty' }));
    server.handle('c', () => 'garbage');
    const send = (event: string) => client.connection.requests.send({ event, params: {} });
    await expect(send('a')).resolves.toMatchObject({ content: 'yes' });
    await expect(send('b')).rejects.toMatchObject({ code: 400, content: 'text is empty' });
    await expect(send('c')).rejects.toBeInstanceOf(ParleyError);
  });

  it('REQ-5: permissions come from the authorize reply', async () => {
    const setup = fakeSetup();
    setup.server.permissions = { enablePublish: false, enableSubscribe: true };
    await Promise.all([setup.client.connect(), tick()]);
    const requests = setup.client.connection.requests;
    await expect(requests.send({ event: 'publish', params: {}, permission: 'write' })).rejects.toMatchObject({
      code: 401,
      content: 'No permission',
    });
    await expect(requests.send({ event: 'subscribe', params: {}, permission: 'read' })).resolves.toBeDefined();
    expect(setup.server.requests('publish')).toHaveLength(0);
  });

  it('REQ-6: requests fail at once when disconnected or after connect_failed', async () => {
    const { client, server } = fakeSetup();
    await expect(client.connection.requests.send({ event: 'x', params: {} })).rejects.toMatchObject({
      code: 409,
      content: 'Please connect first',
    });
    server.refuse = { code: 401, content: 'Invalid otp' };
    await Promise.all([client.connect().catch(() => undefined), tick()]);
    await expect(client.connection.requests.send({ event: 'x', params: {} })).rejects.toMatchObject({ code: 408 });
  });

  it('REQ-7: requests issued while reconnecting wait and succeed after the reconnect', async () => {
    const { client, server } = await connected();
    server.down = true;
    server.dropAll();
    const during = client.connection.requests.send({ event: 'later', params: { n: 1 } });
    await tick(3000);
    expect(server.requests('later')).toHaveLength(0);
    server.down = false;
    await tick(5000);
    await expect(during).resolves.toMatchObject({ code: 200 });
    expect(server.requests('later')).toHaveLength(1);
  });

  it('REQ-7: a request whose ack was lost with the link is sent again after the reconnect, with retried counted', async () => {
    const { client, server } = await connected();
    let calls = 0;
    server.handle('publish', () => (++calls === 1 ? NO_REPLY : { code: 200, content: null }));
    const sent = client.connection.requests.send({ event: 'publish', params: { guid: 'g1' }, countRetries: true });
    await tick();
    server.dropAll();
    await tick(2000);
    await sent;
    expect(server.requests('publish').map((r) => r.params)).toEqual([
      { guid: 'g1', retried: 0 },
      { guid: 'g1', retried: 1 },
    ]);
  });

  it('REQ-8: disconnect settles every outgoing and pending request with 409', async () => {
    const { client, server } = await connected();
    server.handle('slow', () => NO_REPLY);
    const pending = client.connection.requests.send({ event: 'slow', params: {} }).catch((e: unknown) => e);
    await tick();
    server.down = true;
    server.dropAll();
    const outgoing = client.connection.requests.send({ event: 'slow', params: {} }).catch((e: unknown) => e);
    await client.disconnect();
    expect(await pending).toMatchObject({ code: 409 });
    expect(await outgoing).toMatchObject({ code: 409 });
    expect(client.connection.requests.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('REQ-8: a request settles once even when acked twice', async () => {
    const { client, server } = await connected();
    let n = 0;
    server.handle('dup', () => (++n === 1 ? NO_REPLY : { code: 200, content: n }));
    const result = client.connection.requests.send({ event: 'dup', params: {} });
    await tick(1700 * 3);
    expect(await result).toMatchObject({ content: 2 });
  });

  it('REQ-9: a request keeps one timer, set when it goes out and cleared by its ack', async () => {
    const { client, server } = await connected();
    server.handle('echo', () => ({ code: 200, content: 'ok' }));
    const set = vi.spyOn(globalThis, 'setTimeout');
    const cleared = vi.spyOn(globalThis, 'clearTimeout');
    await client.connection.requests.send({ event: 'echo', params: {} });
    expect(set).toHaveBeenCalledTimes(1);
    expect(cleared).toHaveBeenCalledTimes(1);
    expect(cleared).toHaveBeenCalledWith(set.mock.results[0]?.value);
    set.mockRestore();
    cleared.mockRestore();
  });
});
