/**
 * USER-1: events an app's server sends one user through the HTTP API reach every connection of that user, on every
 * node when several share Redis, and nobody else; bad calls are refused in the protocol's words.
 */
import { describe, expect, it } from 'vitest';
import { createClient, type ParleyClient, type UserEvent } from '../../src/index.js';
import type { ServerConfig } from '../../server/src/config.js';
import { OPEN_APP, defer, freshPgSchema, startServer } from '../../server/test/helpers.js';
import { redisPrefix, redisUrl } from '../../server/test/redis-support.js';
import { eventually } from './support.js';

const pgUrl = process.env['PARLEY_TEST_PG'];

async function user(url: string, id: string): Promise<{ client: ParleyClient; seen: UserEvent[] }> {
  const client = createClient({ host: url, appkey: OPEN_APP.appkey, modules: ['pubsub'] });
  defer(() => client.disconnect());
  const seen: UserEvent[] = [];
  client.on('userEvent', (event) => seen.push(event));
  await client.connect({ id, data: { name: id } });
  return { client, seen };
}

async function send(url: string, userId: string, body: unknown, secret = OPEN_APP.secretKey) {
  const res = await fetch(`${url}/api/v1/apps/${OPEN_APP.appkey}/users/${encodeURIComponent(userId)}/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, ...((await res.json()) as { code: number; content: unknown }) };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('user events (USER-1)', () => {
  it('reach every connection of the user, with their name, data and time, and no one else', async () => {
    const { url } = await startServer();
    const phone = await user(url, 'alice');
    const laptop = await user(url, 'alice');
    const bob = await user(url, 'bob');
    const sent = await send(url, 'alice', { name: 'notice', data: { kind: 'like', unread: 3 } });
    expect(sent).toEqual({ status: 200, code: 200, content: { time: expect.any(Number) as unknown } });
    await eventually(() => phone.seen.length === 1 && laptop.seen.length === 1, 'both devices');
    const event = { name: 'notice', data: { kind: 'like', unread: 3 }, time: (sent.content as { time: number }).time };
    expect(phone.seen).toEqual([event]);
    expect(laptop.seen).toEqual([event]);
    // Without data, null; to a user with no connection, nothing, and no error.
    expect((await send(url, 'alice', { name: 'ping' })).status).toBe(200);
    expect((await send(url, 'carol', { name: 'ping' })).status).toBe(200);
    await eventually(() => phone.seen.length === 2, 'the second event');
    expect(phone.seen[1]).toMatchObject({ name: 'ping', data: null });
    await pause(100);
    expect(bob.seen).toEqual([]);
  });

  it('refuses a wrong secret, a missing or long name, large data and a long user id', async () => {
    const { url } = await startServer();
    const alice = await user(url, 'alice');
    expect(await send(url, 'alice', { name: 'x' }, 'wrong')).toEqual({
      status: 401,
      code: 401,
      content: 'No permission',
    });
    expect(await send(url, 'alice', {})).toEqual({ status: 400, code: 400, content: 'name is required.' });
    expect(await send(url, 'alice', { name: '' })).toMatchObject({ content: 'name is required.' });
    expect(await send(url, 'alice', { name: 'x'.repeat(65) })).toMatchObject({ content: 'name over max length 64.' });
    expect(await send(url, 'alice', { name: 'big', data: 'x'.repeat(4096) })).toEqual({
      status: 400,
      code: 400,
      content: 'data over max size 4kb.',
    });
    expect(await send(url, 'a'.repeat(61), { name: 'x' })).toMatchObject({ content: 'id over max length 60' });
    // Exactly at the bounds it goes.
    expect((await send(url, 'alice', { name: 'n'.repeat(64), data: 'x'.repeat(4094) })).status).toBe(200);
    await eventually(() => alice.seen.length === 1, 'the event at the bounds');
  });

  it.runIf(Boolean(pgUrl && redisUrl))('reach a user on another node through Redis', async () => {
    const databaseSchema = freshPgSchema(pgUrl as string);
    const shared: Partial<ServerConfig> = { databaseUrl: pgUrl, databaseSchema, redisUrl, redisPrefix: redisPrefix() };
    const a = await startServer(shared);
    const b = await startServer(shared);
    const onA = await user(a.url, 'alice');
    const onB = await user(b.url, 'alice');
    expect((await send(a.url, 'alice', { name: 'notice', data: 1 })).status).toBe(200);
    await eventually(() => onA.seen.length === 1 && onB.seen.length === 1, 'both nodes');
    expect(onB.seen[0]).toMatchObject({ name: 'notice', data: 1 });
  });
});
