import { describe, expect, it, vi } from 'vitest';
import { MESSAGES, PUBSUB_LIMITS } from '../src/protocol.js';
import { OPEN_APP, request, startServer } from './helpers.js';
import {
  PRIVATE_APP,
  accessToken,
  eventually,
  loseLink,
  publishParams,
  rawUser,
  received,
  settle,
  type RawUser,
} from './pubsub-support.js';

const bad = (content: string) => ({ code: 400, resultCode: 400, content });

describe('pub/sub on the server: validation and permissions', () => {
  it('PUB-3 PUB-4: refuses bad publishes with the spec messages', async () => {
    const { url } = await startServer();
    const { socket } = await rawUser(url, 'alice');
    const publish = (overrides: Record<string, unknown>) =>
      request(socket, 'publish', { ...publishParams('news', 'hi'), ...overrides });
    expect(await publish({ content: '' })).toEqual(bad(MESSAGES.publishMessageRequired));
    expect(await publish({ content: undefined })).toEqual(bad(MESSAGES.publishMessageRequired));
    expect(await publish({ content: 'x'.repeat(10_001) })).toEqual(bad(MESSAGES.publishMessageTooLong));
    expect(await publish({ q: 2 })).toEqual(bad(MESSAGES.qosInvalid));
    expect(await publish({ channel: '' })).toEqual(bad(MESSAGES.channelRequired));
    expect(await publish({ channel: undefined })).toEqual(bad(MESSAGES.channelRequired));
    expect(await publish({ nt: { title: 't'.repeat(33) } })).toEqual(bad(MESSAGES.notificationTitleTooLong));
    expect(await publish({ nt: { body: 'b'.repeat(51) } })).toEqual(bad(MESSAGES.notificationBodyTooLong));
    expect(await publish({ nt: { title: 7 } })).toEqual(bad(MESSAGES.notificationTitleTooLong));
    expect(await publish({ nt: { body: ['b'] } })).toEqual(bad(MESSAGES.notificationBodyTooLong));
    for (const nt of ['hi', 3, true, ['T']]) expect(await publish({ nt })).toEqual(bad(MESSAGES.notificationNotObject));
    for (const badge of [-1, 1.5, '-1', 'x', '', true, {}]) {
      expect(await publish({ nt: { title: 'T', badge } })).toEqual(bad(MESSAGES.badgeInvalid));
    }
    expect(await publish({ nt: { title: 'T', badge: 3 } })).toMatchObject({ code: 200 });
    expect(await publish({ content: 'x'.repeat(10_000), nt: { title: 'T', body: 'B', badge: '0' } })).toMatchObject({
      code: 200,
    });
  });

  it('PUB-5: refuses bad subscribes with the spec messages', async () => {
    const { url } = await startServer();
    const { socket } = await rawUser(url, 'alice');
    const subscribe = (params: Record<string, unknown>) => request(socket, 'subscribe', params);
    expect(await subscribe({ channel: 'a', channels: ['b'] })).toEqual(bad(MESSAGES.channelOrChannels));
    expect(await subscribe({})).toEqual(bad(MESSAGES.channelRequired));
    expect(await subscribe({ channels: [] })).toEqual(bad(MESSAGES.channelsEmpty));
    expect(await subscribe({ channels: ['a', 'a'] })).toEqual(bad(MESSAGES.channelsDuplicate));
    // PUB-2: an empty item of a list is refused as the SDK refuses it, not as a missing channel.
    expect(await subscribe({ channels: ['a', ''] })).toEqual(bad(MESSAGES.channelsBlankItem));
    expect(await subscribe({ channels: ['a', '  '] })).toEqual(bad(MESSAGES.channelsBlankItem));
    expect(await subscribe({ channels: ['a', null] })).toEqual(bad(MESSAGES.channelsBlankItem));
    expect(await subscribe({ channels: ['a', {}] })).toEqual(bad(MESSAGES.channelsBlankItem));
    expect(await subscribe({ channels: ['a', 'c'.repeat(129)] })).toEqual(bad(MESSAGES.channelTooLong));
    expect(await subscribe({ channel: '' })).toEqual(bad(MESSAGES.channelRequired));
    expect(await subscribe({ channels: 'a' })).toEqual(bad(MESSAGES.channelsEmpty));
    expect(await subscribe({ channels: Array.from({ length: 301 }, (_, i) => `c${i}`) })).toEqual(
      bad(MESSAGES.channelsTooLong),
    );
    expect(await subscribe({ channels: ['a'], presence: { enable: 'yes' } })).toEqual(
      bad(MESSAGES.presenceEnableNotBoolean),
    );
    expect(await subscribe({ channels: ['a', 7], presence: { enable: false }, resubscribe: false })).toMatchObject({
      code: 200,
    });
  });

  it('PUB-1: a subscribe-only key can subscribe but not publish', async () => {
    const { url } = await startServer();
    const reader = await rawUser(url, 'reader', { appkey: OPEN_APP.subscribeKey as string });
    expect(await request(reader.socket, 'subscribe', { channels: ['news'] })).toMatchObject({ code: 200 });
    expect(await request(reader.socket, 'publish', publishParams('news', 'hi'))).toEqual({
      code: 401,
      resultCode: 401,
      content: MESSAGES.noPermission,
    });
  });

  it('PUB-15: a private channel needs a token naming the user, the channel and the permission', async () => {
    const { url } = await startServer({ apps: [PRIVATE_APP] });
    const alice = await rawUser(url, 'alice', { appkey: PRIVATE_APP.appkey });
    const denied = { code: 401, resultCode: 401, content: MESSAGES.noPermission };
    const subscribe = (token?: string) => request(alice.socket, 'subscribe', { channels: ['vip'], accessToken: token });
    expect(await subscribe()).toEqual(denied);
    expect(await subscribe('not.a-token')).toEqual(denied);
    expect(await subscribe(accessToken(PRIVATE_APP, { u: 'bob', c: 'vip', p: 'r' }))).toEqual(denied);
    expect(await subscribe(accessToken(PRIVATE_APP, { u: 'alice', c: 'other', p: 'r' }))).toEqual(denied);
    expect(await subscribe(accessToken(PRIVATE_APP, { u: 'alice', c: 'vip', p: 'r', e: Date.now() - 1 }))).toEqual(
      denied,
    );
    expect(await subscribe(accessToken({ ...PRIVATE_APP, secretKey: 'x' }, { u: 'alice', c: 'vip', p: 'r' }))).toEqual(
      denied,
    );
    expect(await subscribe(accessToken(PRIVATE_APP, { u: 'alice', c: ['vip'], p: 'r' }))).toMatchObject({ code: 200 });

    const publish = (at?: string) => request(alice.socket, 'publish', publishParams('vip', 'secret', { at }));
    expect(await publish()).toEqual(denied);
    expect(await publish(accessToken(PRIVATE_APP, { u: 'alice', c: 'vip', p: 'r' }))).toEqual(denied);
    expect(await publish(accessToken(PRIVATE_APP, { u: 'alice', c: 'vip', p: 'w' }))).toMatchObject({ code: 200 });
    await eventually(() => received(alice, 'message').length === 1, 'private message delivered');
    expect(received(alice, 'message')[0]).toMatchObject({ n: 'vip', c: 'secret' });
  });

  it('PUB-18: a channel starting with $ is published by the app server only; clients still subscribe to it', async () => {
    const { url } = await startServer({ apps: [OPEN_APP, PRIVATE_APP] });
    const denied = { code: 401, resultCode: 401, content: MESSAGES.noPermission };
    // An open app: anyone may publish anywhere else, nowhere under `$`.
    const alice = await rawUser(url, 'alice');
    expect(await request(alice.socket, 'subscribe', { channels: ['$live.1'] })).toMatchObject({ code: 200 });
    expect(await request(alice.socket, 'publish', publishParams('$live.1', 'forged'))).toEqual(denied);
    expect(await request(alice.socket, 'publish', publishParams('live.1', 'fine'))).toMatchObject({ code: 200 });
    // A private app: not even a write token opens it.
    const bob = await rawUser(url, 'bob', { appkey: PRIVATE_APP.appkey });
    const write = accessToken(PRIVATE_APP, { u: 'bob', c: '$live.1', p: 'rw' });
    expect(await request(bob.socket, 'publish', publishParams('$live.1', 'forged', { at: write }))).toEqual(denied);

    const res = await fetch(`${url}/api/v1/apps/${OPEN_APP.appkey}/channels/$live.1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${OPEN_APP.secretKey}` },
      body: JSON.stringify({ message: 'from the server' }),
    });
    expect(res.status).toBe(200);
    await eventually(() => received(alice, 'message').length === 1, "the server's message delivered");
    await settle(alice.socket);
    // The refused publishes never reached the subscriber.
    expect(received(alice, 'message').map((m) => [m['n'], m['c']])).toEqual([['$live.1', 'from the server']]);
  });

  it('PUB-15: history, presence watches and here-now of a private channel need read too', async () => {
    const { url } = await startServer({ apps: [PRIVATE_APP] });
    const [alice, mallory] = await Promise.all(
      ['alice', 'mallory'].map((id) => rawUser(url, id, { appkey: PRIVATE_APP.appkey })),
    );
    const denied = { code: 401, resultCode: 401, content: MESSAGES.noPermission };
    const write = accessToken(PRIVATE_APP, { u: 'alice', c: 'vip', p: 'rw' });
    expect(
      await request(alice!.socket, 'subscribe', { channels: ['vip'], accessToken: write, presence: { enable: true } }),
    ).toMatchObject({ code: 200 });
    expect(await request(alice!.socket, 'publish', publishParams('vip', 'secret', { at: write }))).toMatchObject({
      code: 200,
    });
    const reads = (socket: RawUser['socket'], accessToken?: string) => [
      request(socket, 'historyMessages', { channel: 'vip', limit: 10, accessToken }),
      request(socket, 'PUBSUB_PRESENCE_HERENOW', { channel: 'vip', limit: 10, accessToken }),
      request(socket, 'PUBSUB_PRESENCE_SUBSCRIBE', { channel: 'vip', accessToken }),
    ];
    const refused = [undefined, accessToken(PRIVATE_APP, { u: 'alice', c: 'vip', p: 'r' })];
    refused.push(accessToken(PRIVATE_APP, { u: 'mallory', c: 'vip', p: 'w' }));
    refused.push(accessToken(PRIVATE_APP, { u: 'mallory', c: 'other', p: 'r' }));
    for (const token of refused)
      expect(await Promise.all(reads(mallory!.socket, token))).toEqual([denied, denied, denied]);
    // A token granting read lets Mallory read, as it lets her subscribe.
    const [history, hereNow, watch] = await Promise.all(
      reads(mallory!.socket, accessToken(PRIVATE_APP, { u: 'mallory', c: 'vip', p: 'r' })),
    );
    expect(history).toMatchObject({ code: 200, content: { messages: [{ content: 'secret' }] } });
    expect(hereNow).toMatchObject({ code: 200, content: { amount: 1, members: [{ id: 'alice' }] } });
    expect(watch).toMatchObject({ code: 200 });
    // Alice subscribed with a token: her reads need none, as the reference client sends none.
    expect(await Promise.all(reads(alice!.socket))).toEqual([
      expect.objectContaining({ code: 200 }),
      expect.objectContaining({ code: 200 }),
      expect.objectContaining({ code: 200 }),
    ]);
  });
});

/** Posts `body` to the HTTP publish of `OPEN_APP`'s channel `news` with its secret key. */
function postToNews(url: string, body: unknown): Promise<Response> {
  return fetch(`${url}/api/v1/apps/${OPEN_APP.appkey}/channels/news/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${OPEN_APP.secretKey}` },
    body: JSON.stringify(body),
  });
}

describe('pub/sub on the server: delivery', () => {
  it('PUB-7: fans a message out to the subscribers of its channel only, until they unsubscribe', async () => {
    const { url } = await startServer();
    const [a, b, other, publisher] = await Promise.all(['a', 'b', 'other', 'publisher'].map((id) => rawUser(url, id)));
    await request(a!.socket, 'subscribe', { channels: ['news'] });
    await request(b!.socket, 'subscribe', { channels: ['news', 'sport'] });
    await request(other!.socket, 'subscribe', { channels: ['sport'] });
    const params = publishParams('news', 'hello');
    const ack = await request(publisher!.socket, 'publish', params);
    expect(ack).toMatchObject({ code: 200, content: { time: expect.any(Number), guid: params.guid } });
    await eventually(() => received(a!, 'message').length === 1 && received(b!, 'message').length === 1);
    expect(received(a!, 'message')[0]).toEqual({
      n: 'news',
      c: 'hello',
      t: expect.any(Number),
      i: params.guid,
      a: false,
    });
    await request(a!.socket, 'unsubscribe', { channel: 'news' });
    // Unsubscribing twice is no error: the request may be re-sent.
    expect(await request(a!.socket, 'unsubscribe', { channel: 'news' })).toMatchObject({ code: 200 });
    await request(publisher!.socket, 'publish', publishParams('news', 'again'));
    await eventually(() => received(b!, 'message').length === 2);
    await settle(a!.socket);
    expect(received(a!, 'message')).toHaveLength(1);
    expect(received(other!, 'message')).toHaveLength(0);
  });

  it('PUB-10: a re-sent publish (same guid) reaches subscribers once and acks the same time', async () => {
    const { url } = await startServer();
    const sub = await rawUser(url, 'sub');
    const pub = await rawUser(url, 'pub');
    await request(sub.socket, 'subscribe', { channels: ['news'] });
    const params = publishParams('news', 'once');
    const [first, second] = await Promise.all([
      request(pub.socket, 'publish', params),
      request(pub.socket, 'publish', { ...params, retried: 1 }),
    ]);
    const third = await request(pub.socket, 'publish', { ...params, retried: 2 });
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    await settle(sub.socket);
    expect(received(sub, 'message')).toHaveLength(1);
  });

  it('PUB-11: history answers the newest messages, oldest first, within the limit and the retention', async () => {
    const { url } = await startServer({ pubsubHistory: { maxMessages: 4, maxAgeMs: 86_400_000 } });
    const { socket } = await rawUser(url, 'alice');
    for (const n of [1, 2, 3, 4, 5, 6]) await request(socket, 'publish', publishParams('news', `m${n}`));
    await request(socket, 'publish', publishParams('other', 'x'));
    const page = await request(socket, 'historyMessages', { channel: 'news', limit: 3 });
    expect(page['content']).toEqual({
      messages: [
        { time: expect.any(Number), content: 'm4' },
        { time: expect.any(Number), content: 'm5' },
        { time: expect.any(Number), content: 'm6' },
      ],
    });
    const times = (page['content'] as { messages: Array<{ time: number }> }).messages.map((m) => m.time);
    expect([...times].sort((x, y) => x - y)).toEqual(times);
    const all = await request(socket, 'historyMessages', { channel: 'news', limit: 50 });
    expect((all['content'] as { messages: unknown[] }).messages).toHaveLength(4);
    expect(await request(socket, 'historyMessages', { channel: 'news', limit: 0 })).toEqual(
      bad(MESSAGES.historyLimitInvalid),
    );
  });

  it('PUB-8: a qos-1 message published while the subscriber is away reaches it once after it comes back', async () => {
    const { url } = await startServer();
    const sub = await rawUser(url, 'sub');
    const pub = await rawUser(url, 'pub');
    await request(sub.socket, 'subscribe', { channels: ['news'] });
    await loseLink(sub);
    await request(pub.socket, 'publish', publishParams('news', 'while away', { q: 1 }));
    await request(pub.socket, 'publish', publishParams('news', 'qos 0 is not kept', { q: 0 }));
    const back = await rawUser(url, 'sub', { sid: sub.sid });
    expect(back.sid).toBe(sub.sid);
    await eventually(() => received(back, 'message').length === 1, 'redelivery');
    const [message] = received(back, 'message');
    expect(message).toMatchObject({ n: 'news', c: 'while away', a: true });
    back.socket.emit('ack', { publishGuid: message!['i'] });
    await settle(back.socket);
    // Acked: a further reconnect gets nothing again; the channel is still subscribed.
    await loseLink(back);
    const again = await rawUser(url, 'sub', { sid: sub.sid });
    await request(pub.socket, 'publish', publishParams('news', 'live', { q: 1 }));
    await eventually(() => received(again, 'message').length === 1);
    expect(received(again, 'message')[0]).toMatchObject({ c: 'live', a: true });
  });

  it('PUB-8: PS_REDELIVERED follows the redeliveries of each authorize and subscribe, even when there are none', async () => {
    const { url } = await startServer();
    const sub = await rawUser(url, 'sub');
    const pub = await rawUser(url, 'pub');
    expect(sub.moduleData).toEqual({ GWS: { redelivered: true } });
    await eventually(() => received(sub, 'PS_REDELIVERED').length === 1, 'the authorize mark');
    expect(received(sub, 'PS_REDELIVERED')).toEqual([{}]);
    await request(sub.socket, 'subscribe', { channels: ['news', 'sport'] });
    await eventually(() => received(sub, 'PS_REDELIVERED').length === 2, 'the subscribe mark');
    expect(received(sub, 'PS_REDELIVERED')[1]).toEqual({ channels: ['news', 'sport'] });
    // A refused subscribe redelivers nothing and says nothing.
    await request(sub.socket, 'subscribe', { channels: ['a', 'a'] });
    await loseLink(sub);
    await request(pub.socket, 'publish', publishParams('news', 'first', { q: 1 }));
    await request(pub.socket, 'publish', publishParams('sport', 'second', { q: 1 }));
    const back = await rawUser(url, 'sub', { sid: sub.sid });
    await eventually(() => received(back, 'PS_REDELIVERED').length === 1, 'the mark after the redeliveries');
    expect(back.log.map(([event, payload]) => [event, (payload as { c?: string }).c])).toEqual([
      ['message', 'first'],
      ['message', 'second'],
      ['PS_REDELIVERED', undefined],
    ]);
    expect(received(sub, 'PS_REDELIVERED')).toHaveLength(2);
  });

  it('PUB-8: PS_REDELIVERED still comes when restoring the session failed, so that the client holds nothing forever', async () => {
    const { server, url } = await startServer();
    const sub = await rawUser(url, 'sub');
    await request(sub.socket, 'subscribe', { channels: ['news'] });
    await loseLink(sub);
    const load = vi.spyOn(server.store.pubsubSessions, 'load').mockRejectedValueOnce(new Error('store unavailable'));
    const back = await rawUser(url, 'sub', { sid: sub.sid });
    expect(load).toHaveBeenCalledTimes(1);
    await eventually(() => received(back, 'PS_REDELIVERED').length === 1, 'the mark after a failed restore');
    expect(received(back, 'PS_REDELIVERED')).toEqual([{}]);
  });

  it('PUB-8: an unacked qos-1 message is pushed again on the next connection of the session, not on this one', async () => {
    const { url } = await startServer();
    const sub = await rawUser(url, 'sub');
    await request(sub.socket, 'subscribe', { channels: ['news'] });
    await request(sub.socket, 'publish', publishParams('news', 'unacked', { q: 1 }));
    await eventually(() => received(sub, 'message').length === 1);
    await request(sub.socket, 'subscribe', { channels: ['news'], resubscribe: true });
    await settle(sub.socket);
    expect(received(sub, 'message')).toHaveLength(1);
    await loseLink(sub);
    const back = await rawUser(url, 'sub', { sid: sub.sid });
    await eventually(() => received(back, 'message').length === 1);
    expect(received(back, 'message')[0]).toMatchObject({ c: 'unacked', i: received(sub, 'message')[0]!['i'] });
  });

  it('PUB-9: after an expired session, re-subscribing takes over the qos-1 messages the user missed', async () => {
    const { url } = await startServer();
    const sub = await rawUser(url, 'sub');
    const pub = await rawUser(url, 'pub');
    await request(sub.socket, 'subscribe', { channels: ['news'] });
    await loseLink(sub);
    await request(pub.socket, 'publish', publishParams('news', 'missed', { q: 1 }));
    const fresh = await rawUser(url, 'sub', { sid: 'unknown-sid' });
    expect(fresh.sid).not.toBe(sub.sid);
    await request(fresh.socket, 'subscribe', { channels: ['news'], resubscribe: true });
    await eventually(() => received(fresh, 'message').length === 1, 'taken-over redelivery');
    expect(received(fresh, 'message')[0]).toMatchObject({ c: 'missed', a: true });
    // A first-time subscriber of another user does not get old messages.
    const stranger = await rawUser(url, 'stranger');
    await request(stranger.socket, 'subscribe', { channels: ['news'], resubscribe: true });
    await settle(stranger.socket);
    expect(received(stranger, 'message')).toHaveLength(0);
  });

  it('PUB-16: app servers publish over HTTP with the secret key', async () => {
    const { url } = await startServer();
    const sub = await rawUser(url, 'sub');
    await request(sub.socket, 'subscribe', { channels: ['news'] });
    const post = (body: unknown, secret = OPEN_APP.secretKey, appkey = OPEN_APP.appkey) =>
      fetch(`${url}/api/v1/apps/${appkey}/channels/news/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
        body: JSON.stringify(body),
      });
    const wrongKey = await post({ message: 'hi' }, 'nope');
    expect(wrongKey.status).toBe(401);
    expect(await wrongKey.json()).toEqual({ code: 401, content: MESSAGES.noPermission });
    expect((await post({ message: 'hi' }, OPEN_APP.secretKey, 'no-such-app')).status).toBe(401);
    const empty = await post({ message: '' });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ code: 400, content: MESSAGES.publishMessageRequired });
    expect(await (await post({ message: 'hi', qos: 3 })).json()).toEqual({ code: 400, content: MESSAGES.qosInvalid });
    const okay = await post({ message: 'from the server', qos: 1 });
    expect(okay.status).toBe(200);
    const body = (await okay.json()) as { code: number; content: { time: number; guid: string } };
    expect(body).toEqual({
      code: 200,
      content: { time: expect.any(Number), guid: expect.stringMatching(/^[0-9a-f]{32}$/) },
    });
    await eventually(() => received(sub, 'message').length === 1);
    expect(received(sub, 'message')[0]).toMatchObject({
      n: 'news',
      c: 'from the server',
      i: body.content.guid,
      a: true,
    });
  });
  it('PUB-16: the HTTP publish takes every channel a socket can use, and answers bad paths in the wire shape', async () => {
    const { url } = await startServer();
    const post = (channel: string) =>
      fetch(`${url}/api/v1/apps/${OPEN_APP.appkey}/channels/${channel}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${OPEN_APP.secretKey}` },
        body: JSON.stringify({ message: 'hi' }),
      });
    const longest = 'c'.repeat(PUBSUB_LIMITS.channelMaxLength);
    // 128 characters of three UTF-8 bytes each: 1 152 characters once encoded in the path.
    const widest = '\u4E2D'.repeat(PUBSUB_LIMITS.channelMaxLength);
    const sub = await rawUser(url, 'sub');
    await request(sub.socket, 'subscribe', { channels: [longest, widest] });
    for (const channel of [longest, widest]) {
      const answer = await post(encodeURIComponent(channel));
      expect(answer.status, channel).toBe(200);
    }
    await eventually(() => received(sub, 'message').length === 2, 'both published');
    const tooLong = await post(`${longest}c`);
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toEqual({ code: 400, content: MESSAGES.channelTooLong });
    // Past what any channel's encoding takes, the path is refused before it is read: still in the wire shape.
    const huge = await post('c'.repeat(5000));
    expect(huge.status).toBe(414);
    expect(await huge.json()).toEqual({ code: 414, content: expect.any(String) });
    const badEncoding = await post('%zz');
    expect(badEncoding.status).toBe(400);
    expect(await badEncoding.json()).toEqual({ code: 400, content: expect.any(String) });
  });

  it('PUB-16 PUB-4: the HTTP publish takes a notification, with the rules and messages of a socket publish', async () => {
    const { url } = await startServer();
    const sub = await rawUser(url, 'sub');
    await request(sub.socket, 'subscribe', { channels: ['news'] });
    const refused = async (notification: unknown, content: string) => {
      const response = await postToNews(url, { message: 'hi', notification });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ code: 400, content });
    };
    await refused({ title: 't'.repeat(33) }, MESSAGES.notificationTitleTooLong);
    await refused({ title: 5 }, MESSAGES.notificationTitleTooLong);
    await refused({ body: 'b'.repeat(51) }, MESSAGES.notificationBodyTooLong);
    await refused('hi', MESSAGES.notificationNotObject);
    await refused(['T'], MESSAGES.notificationNotObject);
    await refused({ title: 'T', badge: -1 }, MESSAGES.badgeInvalid);
    await refused({ title: 'T', badge: 2.5 }, MESSAGES.badgeInvalid);
    await refused({ title: 'T', badge: 'many' }, MESSAGES.badgeInvalid);
    const okay = await postToNews(url, {
      message: 'sale',
      notification: { title: 't'.repeat(32), body: 'b'.repeat(50), badge: 1 },
    });
    expect(okay.status).toBe(200);
    expect((await postToNews(url, { message: 'plain', notification: null })).status).toBe(200);
    await eventually(() => received(sub, 'message').length === 2);
    expect(received(sub, 'message')[0]).toMatchObject({ c: 'sale', nt: { t: 't'.repeat(32), c: 'b'.repeat(50) } });
    expect(received(sub, 'message')[1]).not.toHaveProperty('nt');
  });
});
