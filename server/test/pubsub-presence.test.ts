import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../src/protocol.js';
import { request, startServer } from './helpers.js';
import { eventually, loseLink, rawUser, received, settle, type RawUser } from './pubsub-support.js';

/** The presence events a watcher got so far, as `action member amount`. */
function story(watcher: RawUser): string[] {
  return received(watcher, 'PS_PRESENCE_EVENT').map(
    (e) => `${String(e['action'])} ${(e['member'] as { id: string }).id} ${String(e['amount'])}`,
  );
}

async function watcherOf(url: string, channel: string): Promise<RawUser> {
  const watcher = await rawUser(url, 'watcher');
  expect(await request(watcher.socket, 'PUBSUB_PRESENCE_SUBSCRIBE', { channel })).toMatchObject({ code: 200 });
  return watcher;
}

const member = (user: RawUser, channel = 'room') =>
  request(user.socket, 'subscribe', { channels: [channel], presence: { enable: true }, resubscribe: false });

describe('pub/sub presence on the server', () => {
  it('PUB-12 PUB-13: join, leave, timeout and back, each with the amount after it', async () => {
    const { url } = await startServer();
    const watcher = await watcherOf(url, 'room');
    const alice = await rawUser(url, 'alice', { data: { name: 'Alice' } });
    const bob = await rawUser(url, 'bob');
    await member(alice);
    await eventually(() => story(watcher).length === 1);
    expect(received(watcher, 'PS_PRESENCE_EVENT')[0]).toEqual({
      channel: 'room',
      action: 'join',
      member: { id: 'alice', data: { name: 'Alice' } },
      time: expect.any(Number),
      amount: 1,
    });
    await member(bob);
    // Subscribing again (the reference re-sends presence channels after every connect) changes nothing.
    await request(bob.socket, 'subscribe', { channels: ['room'], presence: { enable: true }, resubscribe: true });
    await request(alice.socket, 'unsubscribe', { channel: 'room', presence: { enable: true } });
    await loseLink(bob);
    await eventually(() => story(watcher).length === 4);
    const bobBack = await rawUser(url, 'bob', { sid: bob.sid });
    await eventually(() => story(watcher).length === 5);
    await request(bobBack.socket, 'manualDisconnect', {});
    await eventually(() => story(watcher).length === 6);
    expect(story(watcher)).toEqual([
      'join alice 1',
      'join bob 2',
      'leave alice 1',
      'timeout bob 0',
      'back bob 1',
      'leave bob 0',
    ]);
  });

  it('PUB-12: a user who times out and returns with a new session within the session lifetime is back', async () => {
    const { url } = await startServer();
    const watcher = await watcherOf(url, 'room');
    const alice = await rawUser(url, 'alice');
    await member(alice);
    await loseLink(alice);
    const fresh = await rawUser(url, 'alice', { sid: 'expired' });
    await member(fresh);
    await eventually(() => story(watcher).length === 3);
    expect(story(watcher)).toEqual(['join alice 1', 'timeout alice 0', 'back alice 1']);
  });

  it('PUB-12: a user with two member connections leaves when the last one goes; plain subscribers are not members', async () => {
    const { url } = await startServer();
    const watcher = await watcherOf(url, 'room');
    const phone = await rawUser(url, 'alice');
    const laptop = await rawUser(url, 'alice');
    const reader = await rawUser(url, 'reader');
    await member(phone);
    await member(laptop);
    await request(reader.socket, 'subscribe', { channels: ['room'] });
    await loseLink(phone);
    await settle(watcher.socket);
    expect(story(watcher)).toEqual(['join alice 1']);
    await request(laptop.socket, 'unsubscribe', { channel: 'room' });
    await eventually(() => story(watcher).length === 2);
    expect(story(watcher)).toEqual(['join alice 1', 'leave alice 0']);
  });

  it('PUB-12: an anonymous connection cannot be a presence member', async () => {
    const { url } = await startServer();
    const anonymous = await rawUser(url, null);
    expect(await member(anonymous)).toEqual({ code: 400, resultCode: 400, content: MESSAGES.presenceNeedsUser });
    expect(await request(anonymous.socket, 'subscribe', { channels: ['room'] })).toMatchObject({ code: 200 });
  });

  it('PUB-13: a watcher that stops watching hears nothing more; watches survive a same-sid reconnect', async () => {
    const { url } = await startServer();
    const watcher = await watcherOf(url, 'room');
    await loseLink(watcher);
    const back = await rawUser(url, 'watcher', { sid: watcher.sid });
    const alice = await rawUser(url, 'alice');
    await member(alice);
    await eventually(() => story(back).length === 1);
    await request(back.socket, 'PUBSUB_PRESENCE_UNSUBSCRIBE', { channel: 'room' });
    await request(alice.socket, 'unsubscribe', { channel: 'room' });
    await settle(back.socket);
    expect(story(back)).toEqual(['join alice 1']);
  });

  it('PUB-14: here-now lists the newest members first, up to the limit (default 10, at most 300)', async () => {
    const { url } = await startServer();
    const users = [];
    for (const id of ['u1', 'u2', 'u3']) {
      const user = await rawUser(url, id, { data: { n: id } });
      await member(user);
      users.push(user);
    }
    const asker = users[0] as RawUser;
    const two = await request(asker.socket, 'PUBSUB_PRESENCE_HERENOW', { channel: 'room', limit: 2 });
    expect(two).toEqual({
      code: 200,
      resultCode: 200,
      content: {
        members: [
          { id: 'u3', data: { n: 'u3' } },
          { id: 'u2', data: { n: 'u2' } },
        ],
        amount: 3,
      },
    });
    const all = await request(asker.socket, 'PUBSUB_PRESENCE_HERENOW', { channel: 'room' });
    expect((all['content'] as { members: unknown[] }).members).toHaveLength(3);
    const capped = await request(asker.socket, 'PUBSUB_PRESENCE_HERENOW', { channel: 'room', limit: 5000 });
    expect(capped).toMatchObject({ code: 200, content: { amount: 3 } });
    expect(await request(asker.socket, 'PUBSUB_PRESENCE_HERENOW', { channel: 'room', limit: 0 })).toEqual({
      code: 400,
      resultCode: 400,
      content: MESSAGES.membersLimitInvalid,
    });
    expect(await request(asker.socket, 'PUBSUB_PRESENCE_HERENOW', { channel: 'empty' })).toMatchObject({
      content: { members: [], amount: 0 },
    });
  });
  it('PUB-14: here-now without a limit lists the 10 newest of 12 members; the amount is all 12', async () => {
    const { url } = await startServer();
    const ids = Array.from({ length: 12 }, (_, i) => `u${i + 1}`);
    const users: RawUser[] = [];
    for (const id of ids) {
      const user = await rawUser(url, id, { data: { n: id } });
      await member(user);
      users.push(user);
    }
    const newestTen = ids.slice(2).reverse();
    for (const params of [{ channel: 'room' }, { channel: 'room', limit: null }]) {
      const answer = await request(users[0]!.socket, 'PUBSUB_PRESENCE_HERENOW', params);
      expect(answer).toMatchObject({ code: 200, content: { amount: 12 } });
      const members = (answer['content'] as { members: Array<{ id: string; data: unknown }> }).members;
      expect(members.map((m) => m.id)).toEqual(newestTen);
      expect(members[0]).toEqual({ id: 'u12', data: { n: 'u12' } });
    }
    const eleven = await request(users[0]!.socket, 'PUBSUB_PRESENCE_HERENOW', { channel: 'room', limit: 11 });
    expect((eleven['content'] as { members: unknown[] }).members).toHaveLength(11);
  });
});
