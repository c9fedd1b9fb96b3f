import { describe, expect, it, vi } from 'vitest';
import { MESSAGES, type ChannelPresenceEvent, type PubsubMessage } from '../../src/index.js';
import { NO_REPLY as NO_ACK } from '../support/fake-server.js';
import { fakeSetup } from '../support/setup.js';
import { useFakeClock } from '../support/clock.js';

const tick = useFakeClock();
const ok = (content: unknown) => ({ code: 200, resultCode: 200, content });

async function connected(
  options: {
    id?: string;
    permissions?: { enablePublish: boolean; enableSubscribe: boolean };
    /** The server marks the end of its redeliveries (PUB-8). */
    marks?: boolean;
  } = {},
) {
  const setup = fakeSetup({ modules: ['pubsub'], random: () => 0.5 });
  if (options.permissions) setup.server.permissions = options.permissions;
  if (options.marks) setup.server.moduleData.GWS = { redelivered: true };
  await Promise.all([setup.client.connect({ id: options.id ?? 'me' }), tick()]);
  return { ...setup, pubsub: setup.client.pubsub };
}

function inbox(): { seen: PubsubMessage[]; onMessage: (m: PubsubMessage) => void } {
  const seen: PubsubMessage[] = [];
  return { seen, onMessage: (m) => seen.push(m) };
}

const wire = (n: string, c: string, i: string, a = false) => ({ n, c, t: 1000, i, a });
/** A qos-1 message of `channel` at server time `t`, its content its guid. */
const timed = (n: string, t: number) => ({ n, c: `m${t}`, t, i: `m${t}`, a: true });
const REDELIVERED = 'PS_REDELIVERED';

type Setup = Awaited<ReturnType<typeof connected>>;

/** Loses the link and waits until the client is back on the same session. */
async function relink({ server, client }: Setup): Promise<void> {
  server.dropAll();
  await tick(6000);
  expect(client.getConnectionStatus()).toBe('reconnected');
}

/** Subscribes `channels` on a server that marks its redeliveries, and gives the subscribe its mark. */
async function subscribeMarked(setup: Setup, channels: string[], onMessage: (m: PubsubMessage) => void) {
  await Promise.all([setup.pubsub.subscribe({ channels, onMessage }), tick()]);
  setup.server.push(REDELIVERED, { channels });
}

describe('pub/sub flows on the fake server', () => {
  it('PUB-3 REQ-7: a publish carries a 32-hex guid, the retry count, qos, notification and access token', async () => {
    const { pubsub, server } = await connected();
    server.handle('publish', (p) => ok({ time: 1234, guid: p.guid }));
    const result = await Promise.all([
      pubsub.publish({
        channel: 42,
        message: 'hi',
        qos: 1,
        notification: { title: 'T', body: 'B' },
        accessToken: 'tok',
      }),
      tick(),
    ]).then(([r]) => r);
    const [sent] = server.requests('publish');
    expect(sent?.params).toEqual({
      channel: '42',
      content: 'hi',
      nt: { title: 'T', body: 'B' },
      at: 'tok',
      guid: result.guid,
      q: 1,
      retried: 0,
    });
    expect(result).toEqual({ guid: expect.stringMatching(/^[0-9a-f]{32}$/), time: 1234 });
  });

  it('PUB-3: a publish guid begins with the time it was made (as message ids do, IMC-1)', async () => {
    const { pubsub, server } = await connected();
    server.handle('publish', (p) => ok({ time: 1234, guid: p.guid }));
    const at = Date.UTC(2026, 10, 25, 12);
    vi.setSystemTime(at);
    const [result] = await Promise.all([pubsub.publish({ channel: 'c', message: 'hi' }), tick()]);
    expect(result.guid.slice(0, 12)).toBe(at.toString(16).padStart(12, '0'));
  });

  it('PUB-10 REQ-2: an unacked publish is re-sent with the same guid and a growing retried count', async () => {
    const { pubsub, server } = await connected();
    server.handle('publish', (p) => (Number(p.retried) < 2 ? NO_ACK : ok(null)));
    const publishing = pubsub.publish({ channel: 'news', message: 'hi' });
    await tick(1700 * 2 + 10);
    await expect(publishing).resolves.toMatchObject({ time: undefined });
    const sent = server.requests('publish').map((r) => [r.params.guid, r.params.retried]);
    const guid = sent[0]?.[0];
    expect(sent).toEqual([
      [guid, 0],
      [guid, 1],
      [guid, 2],
    ]);
  });

  it('PUB-1 REQ-5: publishing needs write permission, subscribing read; refused locally with 401', async () => {
    const { pubsub, server } = await connected({ permissions: { enablePublish: false, enableSubscribe: true } });
    const publishing = pubsub.publish({ channel: 'news', message: 'hi' }).catch((e: unknown) => e);
    await tick();
    expect(await publishing).toMatchObject({ code: 401, content: 'No permission' });
    expect(server.requests('publish')).toHaveLength(0);
    const subscribing = pubsub.subscribe({ channel: 'news', onMessage: () => undefined });
    await tick();
    await expect(subscribing).resolves.toBeUndefined();
  });

  it("PUB-18: a publish on a server channel ($...) is refused with 401 before asking; subscribing is the app's", async () => {
    const { pubsub, server } = await connected();
    const publishing = pubsub.publish({ channel: '$live.7', message: 'forged' }).catch((e: unknown) => e);
    await tick();
    expect(await publishing).toMatchObject({ code: 401, content: 'No permission' });
    expect(server.requests('publish')).toHaveLength(0);
    const subscribing = pubsub.subscribe({ channel: '$live.7', onMessage: () => undefined });
    await tick();
    await expect(subscribing).resolves.toBeUndefined();
    expect(server.requests('subscribe').at(-1)?.params).toMatchObject({ channels: ['$live.7'] });
  });

  it('PUB-5 PUB-7: subscribe sends channels as strings; pushes reach the onMessage of their channel', async () => {
    const { pubsub, server } = await connected();
    const news = inbox();
    const sport = inbox();
    await Promise.all([pubsub.subscribe({ channels: ['news', 7], onMessage: news.onMessage }), tick()]);
    await Promise.all([
      pubsub.subscribe({ channel: 'sport', presence: { enable: true }, onMessage: sport.onMessage }),
      tick(),
    ]);
    expect(server.requests('subscribe').map((r) => r.params)).toEqual([
      { channels: ['news', '7'], resubscribe: false },
      { channels: ['sport'], presence: { enable: true }, resubscribe: false },
    ]);
    server.push('message', wire('news', 'n1', 'g1'));
    server.push('message', JSON.stringify(wire('7', 'seven', 'g2')));
    server.push('message', wire('sport', 's1', 'g3'));
    server.push('message', wire('unknown', 'dropped', 'g4'));
    server.push('message', { n: 'news' });
    expect(news.seen).toEqual([
      { time: 1000, channel: 'news', content: 'n1' },
      { time: 1000, channel: '7', content: 'seven' },
    ]);
    expect(sport.seen).toEqual([{ time: 1000, channel: 'sport', content: 's1' }]);
    expect(pubsub.channels.sort()).toEqual(['7', 'news', 'sport']);
    await Promise.all([pubsub.unsubscribe({ channel: 'news' }), tick()]);
    expect(server.requests('unsubscribe').map((r) => r.params)).toEqual([{ channel: 'news' }]);
    server.push('message', wire('news', 'after', 'g5'));
    expect(news.seen).toHaveLength(2);
  });

  it('PUB-5: a refused subscribe leaves no listener behind', async () => {
    const { pubsub, server } = await connected();
    server.handle('subscribe', () => ({ code: 401, resultCode: 401, content: 'No permission' }));
    const box = inbox();
    const subscribing = pubsub.subscribe({ channel: 'vip', onMessage: box.onMessage }).catch((e: unknown) => e);
    await tick();
    expect(await subscribing).toMatchObject({ code: 401, content: 'No permission' });
    server.push('message', wire('vip', 'secret', 'g1'));
    expect(box.seen).toHaveLength(0);
    expect(pubsub.channels).toEqual([]);
  });

  it('PUB-8: qos-1 messages are acked with a plain ack, duplicates too; duplicates reach onMessage once', async () => {
    const { pubsub, server } = await connected();
    const box = inbox();
    await Promise.all([pubsub.subscribe({ channel: 'news', onMessage: box.onMessage }), tick()]);
    server.push('message', wire('news', 'q1', 'g1', true));
    server.push('message', wire('news', 'q1', 'g1', true));
    server.push('message', wire('news', 'q0', 'g2'));
    server.push('message', wire('news', 'q0', 'g2'));
    expect(box.seen.map((m) => m.content)).toEqual(['q1', 'q0']);
    expect(server.requests('ack').map((r) => r.params)).toEqual([{ publishGuid: 'g1' }, { publishGuid: 'g1' }]);
  });

  it('PUB-8: the duplicate window holds the last 300 guids', async () => {
    const { pubsub, server } = await connected();
    const box = inbox();
    await Promise.all([pubsub.subscribe({ channel: 'news', onMessage: box.onMessage }), tick()]);
    for (let i = 0; i < 301; i++) server.push('message', wire('news', `m${i}`, `g${i}`));
    server.push('message', wire('news', 'again', 'g300'));
    server.push('message', wire('news', 'forgotten', 'g0'));
    expect(box.seen).toHaveLength(302);
    expect(box.seen.at(-1)?.content).toBe('forgotten');
  });

  it('PUB-8: after a lost link, messages wait for the redeliveries and come in their time order', async () => {
    const setup = await connected({ marks: true });
    const { server } = setup;
    const box = inbox();
    await subscribeMarked(setup, ['a', 'b'], box.onMessage);
    server.push('message', timed('a', 1));
    await relink(setup);
    // Published once the link was back, then those published while it was down, redelivered.
    server.push('message', timed('a', 5));
    server.push('message', timed('b', 4));
    server.push('message', timed('a', 2));
    server.push('message', timed('a', 3));
    server.push('message', timed('a', 3));
    expect(box.seen.map((m) => m.content)).toEqual(['m1']);
    server.push(REDELIVERED, {});
    expect(box.seen.map((m) => m.content)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    // Every qos-1 push is acked when it comes, held or not.
    expect(server.requests('ack')).toHaveLength(6);
    server.push('message', timed('a', 6));
    expect(box.seen.at(-1)?.content).toBe('m6');
  });

  it("PUB-8: a subscribe's channels wait for its redeliveries; other channels do not", async () => {
    const setup = await connected({ marks: true });
    const { pubsub, server } = setup;
    const box = inbox();
    await subscribeMarked(setup, ['other'], box.onMessage);
    const subscribing = pubsub.subscribe({ channel: 'news', onMessage: box.onMessage });
    // Pushed live before the ack; the redeliveries come after it.
    server.push('message', timed('news', 9));
    server.push('message', timed('other', 1));
    await tick();
    await subscribing;
    server.push('message', timed('news', 7));
    server.push('message', timed('news', 8));
    expect(box.seen.map((m) => m.content)).toEqual(['m1']);
    server.push(REDELIVERED, { channels: ['news'] });
    expect(box.seen.map((m) => m.content)).toEqual(['m1', 'm7', 'm8', 'm9']);
  });

  it('PUB-8: a mark taken in before its subscribe ack still ends the wait', async () => {
    const { pubsub, server } = await connected({ marks: true });
    const box = inbox();
    server.handle('subscribe', (p) => {
      // Both reach the client in one read: the mark's push is handled before the ack's promise settles.
      server.push('message', timed('news', 2));
      server.push(REDELIVERED, { channels: p.channels });
      return ok(null);
    });
    await Promise.all([pubsub.subscribe({ channel: 'news', onMessage: box.onMessage }), tick()]);
    expect(box.seen.map((m) => m.content)).toEqual(['m2']);
    server.push('message', timed('news', 3));
    expect(box.seen.map((m) => m.content)).toEqual(['m2', 'm3']);
  });

  it('PUB-8: a refused subscribe, or a link lost before its mark, holds nothing for long', async () => {
    const setup = await connected({ marks: true });
    const { pubsub, server } = setup;
    const box = inbox();
    server.handle('subscribe', () => ({ code: 401, resultCode: 401, content: 'No permission' }));
    const refused = pubsub.subscribe({ channel: 'vip', onMessage: box.onMessage }).catch((e: unknown) => e);
    await tick();
    expect(await refused).toMatchObject({ code: 401 });
    server.handle('subscribe', () => ok(null));
    await Promise.all([pubsub.subscribe({ channel: 'news', onMessage: box.onMessage }), tick()]);
    server.push('message', timed('news', 1));
    expect(box.seen).toEqual([]);
    // Its mark never comes on this link; the next authorize's covers every channel.
    await relink(setup);
    server.push(REDELIVERED, {});
    expect(box.seen.map((m) => m.content)).toEqual(['m1']);
    server.push('message', timed('news', 2));
    expect(box.seen.map((m) => m.content)).toEqual(['m1', 'm2']);
  });

  it('PUB-8: an unsubscribe right after the link is back hands over the redeliveries first', async () => {
    const setup = await connected({ marks: true });
    const { pubsub, server } = setup;
    const box = inbox();
    await subscribeMarked(setup, ['news'], box.onMessage);
    await relink(setup);
    let done = false;
    const leaving = pubsub.unsubscribe({ channel: 'news' }).then(() => (done = true));
    await tick();
    expect(server.requests('unsubscribe')).toHaveLength(0);
    server.push('message', timed('news', 1));
    server.push(REDELIVERED, {});
    await Promise.all([leaving, tick()]);
    expect(done).toBe(true);
    expect(box.seen.map((m) => m.content)).toEqual(['m1']);
    expect(server.requests('unsubscribe')).toHaveLength(1);
    expect(pubsub.channels).toEqual([]);
  });

  it('PUB-8: past 5 000 held messages, what is held is handed over without waiting for the mark', async () => {
    const setup = await connected({ marks: true });
    const { server } = setup;
    const box = inbox();
    await subscribeMarked(setup, ['news'], box.onMessage);
    await relink(setup);
    for (let t = 5000; t >= 1; t--) server.push('message', timed('news', t));
    expect(box.seen).toEqual([]);
    server.push('message', timed('news', 5001));
    expect(box.seen).toHaveLength(5001);
    expect(box.seen.every((m, i) => m.time === i + 1)).toBe(true);
  });

  it('PUB-8: without marks from the server, messages are handed over as they come', async () => {
    const setup = await connected();
    const { pubsub, server } = setup;
    const box = inbox();
    const subscribing = pubsub.subscribe({ channel: 'news', onMessage: box.onMessage });
    server.push('message', timed('news', 3));
    await Promise.all([subscribing, tick()]);
    server.push('message', timed('news', 1));
    await relink(setup);
    server.push('message', timed('news', 2));
    expect(box.seen.map((m) => m.content)).toEqual(['m3', 'm1', 'm2']);
  });

  it('PUB-8: a listener that throws on a held message stops no other, and its error is still thrown', async () => {
    const setup = await connected({ marks: true });
    const { pubsub, server } = setup;
    const box = inbox();
    const failure = new Error('listener failed');
    await Promise.all([
      pubsub.subscribe({
        channel: 'bad',
        onMessage: () => {
          throw failure;
        },
      }),
      pubsub.subscribe({ channel: 'good', onMessage: box.onMessage }),
      tick(),
    ]);
    server.push(REDELIVERED, { channels: ['bad'] });
    server.push(REDELIVERED, { channels: ['good'] });
    await relink(setup);
    server.push('message', timed('bad', 1));
    server.push('message', timed('good', 2));
    expect(box.seen).toEqual([]);
    const thrown: Array<() => void> = [];
    const queue = vi.spyOn(globalThis, 'queueMicrotask').mockImplementation((task) => thrown.push(task));
    try {
      // Both are handed over at once: the first one's listener throws.
      server.push(REDELIVERED, {});
    } finally {
      queue.mockRestore();
    }
    expect(box.seen.map((m) => m.content)).toEqual(['m2']);
    expect(thrown).toHaveLength(1);
    expect(() => thrown[0]?.()).toThrow(failure);
  });

  it('PUB-9: after expired_reconnected every channel and presence watch is subscribed again', async () => {
    const { pubsub, server, client } = await connected();
    const box = inbox();
    await Promise.all([pubsub.subscribe({ channels: ['a', 'b'], onMessage: box.onMessage }), tick()]);
    await Promise.all([
      pubsub.subscribe({ channel: 'c', presence: { enable: true }, accessToken: 'tok', onMessage: box.onMessage }),
      tick(),
    ]);
    await Promise.all([pubsub.subscribePresence({ channel: 'c', onPresence: () => undefined }), tick()]);
    await Promise.all([
      pubsub.subscribePresence({ channel: 'd', accessToken: 'tok-d', onPresence: () => undefined }),
      tick(),
    ]);
    await Promise.all([pubsub.unsubscribe({ channel: 'b' }), tick()]);
    server.received.length = 0;
    server.forgetSessions();
    server.dropAll();
    await tick(6000);
    expect(client.getConnectionStatus()).toBe('expired_reconnected');
    expect(server.requests('subscribe').map((r) => r.params)).toEqual([
      { channels: ['a'], resubscribe: true },
      { channels: ['c'], accessToken: 'tok', presence: { enable: true }, resubscribe: true },
    ]);
    // PUB-15: a watch goes with its own token, else with its channel's, since the subscribe may not be through yet.
    expect(server.requests('PUBSUB_PRESENCE_SUBSCRIBE').map((r) => r.params)).toEqual([
      { channel: 'c', accessToken: 'tok' },
      { channel: 'd', accessToken: 'tok-d' },
    ]);
    expect(server.requests('PUBSUB_PRESENCE_HERENOW').map((r) => r.params)).toEqual([
      { channel: 'c', limit: 10, accessToken: 'tok' },
      { channel: 'd', limit: 10, accessToken: 'tok-d' },
    ]);
    server.push('message', wire('a', 'still here', 'g1'));
    expect(box.seen).toEqual([{ time: 1000, channel: 'a', content: 'still here' }]);
  });

  it('PUB-17: a 1001st channel or presence watch is refused before it is asked for', async () => {
    const { pubsub, server } = await connected();
    const names = (prefix: string, from: number) => Array.from({ length: 250 }, (_, i) => `${prefix}${from + i}`);
    for (let from = 0; from < 1000; from += 250) {
      await Promise.all([pubsub.subscribe({ channels: names('c', from), onMessage: () => undefined }), tick()]);
    }
    await expect(pubsub.subscribe({ channel: 'one-more', onMessage: () => undefined })).rejects.toMatchObject({
      code: 400,
      content: MESSAGES.sessionChannelsTooMany,
    });
    // Channels it has cost nothing.
    await Promise.all([pubsub.subscribe({ channel: 'c7', onMessage: () => undefined }), tick()]);
    expect(server.requests('subscribe')).toHaveLength(5);
    for (let i = 0; i < 1000; i++) {
      await Promise.all([pubsub.subscribePresence({ channel: `w${i}`, onPresence: () => undefined }), tick()]);
    }
    await expect(pubsub.subscribePresence({ channel: 'w-more', onPresence: () => undefined })).rejects.toMatchObject({
      code: 400,
      content: MESSAGES.sessionWatchesTooMany,
    });
    expect(server.requests('PUBSUB_PRESENCE_SUBSCRIBE')).toHaveLength(1000);
  });

  it('PUB-9: after a plain reconnected (same sid) nothing is re-sent: the server kept it', async () => {
    const { pubsub, server, client } = await connected();
    await Promise.all([pubsub.subscribe({ channel: 'a', onMessage: () => undefined }), tick()]);
    await Promise.all([pubsub.subscribePresence({ channel: 'a', onPresence: () => undefined }), tick()]);
    server.received.length = 0;
    server.dropAll();
    await tick(6000);
    expect(client.getConnectionStatus()).toBe('reconnected');
    expect(server.requests('subscribe')).toHaveLength(0);
    expect(server.requests('PUBSUB_PRESENCE_SUBSCRIBE')).toHaveLength(0);
  });

  it('PUB-9: a reconnect refused for good ends the channels as a disconnect does; a new connect starts with none', async () => {
    const { pubsub, server, client } = await connected();
    const box = inbox();
    await Promise.all([pubsub.subscribe({ channel: 'a', onMessage: box.onMessage }), tick()]);
    await Promise.all([pubsub.subscribePresence({ channel: 'a', onPresence: () => undefined }), tick()]);
    server.refuse = { code: 401, content: 'otp has expired' };
    server.dropAll();
    await tick(6000);
    expect(client.getConnectionStatus()).toBe('connect_failed');
    expect(pubsub.channels).toEqual([]);
    server.refuse = undefined;
    await Promise.all([client.connect({ id: 'me' }), tick()]);
    expect(client.getConnectionStatus()).toBe('connected');
    expect(pubsub.channels).toEqual([]);
    // Subscribed again, its messages arrive.
    await Promise.all([pubsub.subscribe({ channel: 'a', onMessage: box.onMessage }), tick()]);
    server.push('message', wire('a', 'hello', 'g1'));
    expect(box.seen.map((m) => m.content)).toEqual(['hello']);
  });

  it('PUB-13 PUB-14: presence events keep the member list, newest first, within membersLimit', async () => {
    const { pubsub, server } = await connected();
    server.handle('PUBSUB_PRESENCE_HERENOW', (p) => {
      expect(p).toEqual({ channel: 'room', limit: 2 });
      return ok({ members: [{ id: 'a', data: { n: 'A' } }], amount: 1 });
    });
    const events: ChannelPresenceEvent[] = [];
    await Promise.all([
      pubsub.subscribePresence({ channel: 'room', membersLimit: 2, onPresence: (e) => events.push(e) }),
      tick(),
    ]);
    const push = (action: string, id: string, amount: number) =>
      server.push('PS_PRESENCE_EVENT', { channel: 'room', action, member: { id, data: {} }, time: 5, amount });
    push('join', 'b', 2);
    push('join', 'c', 3);
    push('timeout', 'c', 2);
    push('back', 'c', 3);
    push('leave', 'b', 2);
    server.push('PS_PRESENCE_EVENT', { channel: 'other', action: 'join', member: { id: 'x' }, time: 5, amount: 1 });
    expect(events.map((e) => [e.action, e.member.id, e.amount, e.members.map((m) => m.id)])).toEqual([
      ['join', 'b', 2, ['b', 'a']],
      ['join', 'c', 3, ['c', 'b']],
      ['timeout', 'c', 2, ['b']],
      ['back', 'c', 3, ['c', 'b']],
      ['leave', 'b', 2, ['c']],
    ]);
    expect(server.requests('PUBSUB_PRESENCE_SUBSCRIBE').map((r) => r.params)).toEqual([{ channel: 'room' }]);
    await Promise.all([pubsub.unsubscribePresence({ channel: 'room' }), tick()]);
    push('join', 'd', 3);
    expect(events).toHaveLength(5);
  });

  it('PUB-14: without a limit, subscribePresence and hereNow ask for 10 members; 300 is the most they send', async () => {
    const { pubsub, server } = await connected();
    const twelve = Array.from({ length: 12 }, (_, i) => ({ id: `m${12 - i}`, data: {} }));
    server.handle('PUBSUB_PRESENCE_HERENOW', () => ok({ members: twelve, amount: 12 }));
    const events: ChannelPresenceEvent[] = [];
    await Promise.all([pubsub.subscribePresence({ channel: 'a', onPresence: (e) => events.push(e) }), tick()]);
    const [here] = await Promise.all([pubsub.hereNow({ channel: 'b' }), tick()]);
    await Promise.all([
      pubsub.subscribePresence({ channel: 'c', membersLimit: 300, onPresence: () => undefined }),
      tick(),
    ]);
    await Promise.all([pubsub.hereNow({ channel: 'd', limit: 300 }), tick()]);
    const tooMany = await Promise.all([
      pubsub.hereNow({ channel: 'e', limit: 301 }).catch((e: unknown) => e),
      pubsub
        .subscribePresence({ channel: 'f', membersLimit: 301, onPresence: () => undefined })
        .catch((e: unknown) => e),
      tick(),
    ]);
    expect(tooMany.slice(0, 2)).toEqual([
      expect.objectContaining({ code: 400, content: MESSAGES.membersLimitInvalid }),
      expect.objectContaining({ code: 400, content: MESSAGES.membersLimitInvalid }),
    ]);
    expect(server.requests('PUBSUB_PRESENCE_HERENOW').map((r) => r.params)).toEqual([
      { channel: 'a', limit: 10 },
      { channel: 'b', limit: 10 },
      { channel: 'c', limit: 300 },
      { channel: 'd', limit: 300 },
    ]);
    expect(server.requests('PUBSUB_PRESENCE_SUBSCRIBE').map((r) => r.params)).toEqual([
      { channel: 'a' },
      { channel: 'c' },
    ]);
    // hereNow hands over what the server listed; a presence watch keeps the default 10 newest.
    expect(here.members).toHaveLength(12);
    server.push('PS_PRESENCE_EVENT', { channel: 'a', action: 'join', member: { id: 'm13' }, time: 5, amount: 13 });
    expect(events[0]?.members.map((m) => m.id)).toEqual(['m13', ...twelve.slice(0, 9).map((m) => m.id)]);
  });

  it('PUB-14 PUB-11: hereNow and history map the acks', async () => {
    const { pubsub, server } = await connected();
    server.handle('PUBSUB_PRESENCE_HERENOW', () =>
      ok({ members: [{ id: 'a', data: { n: 1 } }, { id: 2 }], amount: 7 }),
    );
    server.handle('historyMessages', (p) => {
      expect(p).toEqual({ channel: 'news', limit: 10 });
      return ok({
        messages: [
          { time: 1, content: 'old' },
          { time: 2, content: 'new' },
        ],
      });
    });
    const [here] = await Promise.all([pubsub.hereNow({ channel: 'room' }), tick()]);
    expect(here).toEqual({
      channel: 'room',
      amount: 7,
      members: [
        { id: 'a', data: { n: 1 } },
        { id: '2', data: {} },
      ],
    });
    const [history] = await Promise.all([pubsub.history({ channel: 'news' }), tick()]);
    expect(history).toEqual({
      messages: [
        { time: 1, content: 'old' },
        { time: 2, content: 'new' },
      ],
    });
  });

  it('CONN-11: disconnect() forgets subscriptions: the next session starts empty', async () => {
    const { pubsub, client } = await connected();
    await Promise.all([pubsub.subscribe({ channel: 'a', onMessage: () => undefined }), tick()]);
    await Promise.all([client.disconnect(), tick(2000)]);
    expect(pubsub.channels).toEqual([]);
  });
});
