import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, ParleyError, createClient } from '../../src/index.js';
import { FakeServer } from '../support/fake-server.js';
import { fakeSetup } from '../support/setup.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

async function connected(id: string | null = 'me') {
  const setup = fakeSetup({ modules: ['pubsub'], random: () => 0.5 });
  await Promise.all([setup.client.connect(id === null ? {} : { id }), vi.advanceTimersByTimeAsync(0)]);
  return { ...setup, pubsub: setup.client.pubsub };
}

/** Runs `call` and returns the 400 message it rejected or threw with. */
async function refusal(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
  } catch (error) {
    expect(error).toBeInstanceOf(ParleyError);
    expect((error as ParleyError).code).toBe(400);
    return (error as ParleyError).content;
  }
  throw new Error('expected a refusal');
}

const onMessage = () => undefined;

describe('pub/sub argument checks (PUB-2..PUB-6, PUB-11..PUB-14)', () => {
  it('PUB-3 PUB-4: publish checks channel, message, qos and notification before sending anything', async () => {
    const { pubsub, server } = await connected();
    const publish = (options: Record<string, unknown>) => () =>
      pubsub.publish({ channel: 'news', message: 'hi', ...options });
    expect(await refusal(publish({ channel: undefined }))).toBe(MESSAGES.channelRequired);
    expect(await refusal(publish({ channel: '  ' }))).toBe(MESSAGES.channelRequired);
    expect(await refusal(publish({ channel: {} }))).toBe(MESSAGES.channelRequired);
    expect(await refusal(publish({ channel: 'c'.repeat(129) }))).toBe(MESSAGES.channelTooLong);
    expect(await refusal(publish({ message: undefined }))).toBe('message is required.');
    expect(await refusal(publish({ message: '' }))).toBe('message is required.');
    expect(await refusal(publish({ message: 42 }))).toBe('message is required.');
    expect(await refusal(publish({ message: 'x'.repeat(10_001) }))).toBe('Message over max length 10000.');
    expect(await refusal(publish({ qos: 2 }))).toBe('Qos must be 0 or 1.');
    expect(await refusal(publish({ qos: '1' }))).toBe('Qos must be 0 or 1.');
    expect(await refusal(publish({ notification: 'hi' }))).toBe(MESSAGES.notificationNotObject);
    expect(await refusal(publish({ notification: { title: 't'.repeat(33) } }))).toBe(MESSAGES.notificationTitleTooLong);
    expect(await refusal(publish({ notification: { body: 'b'.repeat(51) } }))).toBe(MESSAGES.notificationBodyTooLong);
    expect(await refusal(publish({ notification: { badge: -1 } }))).toBe(MESSAGES.badgeInvalid);
    expect(await refusal(publish({ notification: { badge: 1.5 } }))).toBe(MESSAGES.badgeInvalid);
    expect(server.requests('publish')).toHaveLength(0);
    const ok = pubsub.publish({
      channel: 7,
      message: 'x'.repeat(10_000),
      qos: 1,
      notification: { title: 't'.repeat(32), body: 'b'.repeat(50), badge: 0 },
    });
    await vi.advanceTimersByTimeAsync(0);
    await expect(ok).resolves.toMatchObject({ guid: expect.stringMatching(/^[0-9a-f]{32}$/) });
  });

  it('PUB-5: subscribe takes channel or channels, not both, with the id-array rules', async () => {
    const { pubsub, server } = await connected();
    const subscribe = (options: Record<string, unknown>) => () => pubsub.subscribe({ onMessage, ...options });
    expect(await refusal(subscribe({}))).toBe('channel is required.');
    expect(await refusal(subscribe({ channel: '' }))).toBe('channel is required.');
    expect(await refusal(subscribe({ channel: 'a', channels: ['b'] }))).toBe(
      'subscribe to either channel or channels, not both.',
    );
    expect(await refusal(subscribe({ channels: [] }))).toBe(MESSAGES.channelsEmpty);
    expect(await refusal(subscribe({ channels: 'a,b' }))).toBe(MESSAGES.channelsEmpty);
    expect(await refusal(subscribe({ channels: ['a', ' '] }))).toBe(MESSAGES.channelsBlankItem);
    expect(await refusal(subscribe({ channels: ['a', null] }))).toBe(MESSAGES.channelsBlankItem);
    expect(await refusal(subscribe({ channels: ['a', 'b', 'a'] }))).toBe(MESSAGES.channelsDuplicate);
    expect(await refusal(subscribe({ channels: [1, '1'] }))).toBe(MESSAGES.channelsDuplicate);
    expect(await refusal(subscribe({ channels: Array.from({ length: 301 }, (_, i) => i) }))).toBe(
      MESSAGES.channelsTooLong,
    );
    expect(await refusal(subscribe({ channel: 'a', presence: { enable: 'yes' } }))).toBe(
      'presence enable must be boolean',
    );
    expect(await refusal(subscribe({ channel: 'a', presence: true }))).toBe('presence enable must be boolean');
    expect(await refusal(subscribe({ channel: 'a', onMessage: undefined }))).toBe(MESSAGES.onMessageRequired);
    expect(server.requests('subscribe')).toHaveLength(0);
    const ok = pubsub.subscribe({ channels: Array.from({ length: 300 }, (_, i) => i), onMessage });
    await vi.advanceTimersByTimeAsync(0);
    await expect(ok).resolves.toBeUndefined();
  });

  it('PUB-12: presence membership needs a connected user id', async () => {
    const { pubsub, server } = await connected(null);
    expect(await refusal(() => pubsub.subscribe({ channel: 'a', presence: { enable: true }, onMessage }))).toBe(
      MESSAGES.presenceNeedsUser,
    );
    expect(server.requests('subscribe')).toHaveLength(0);
    const plain = pubsub.subscribe({ channel: 'a', presence: { enable: false }, onMessage });
    await vi.advanceTimersByTimeAsync(0);
    await expect(plain).resolves.toBeUndefined();
  });

  it('PUB-6: unsubscribing a channel never subscribed fails with channel[x] is not subscribed', async () => {
    const { pubsub, server } = await connected();
    expect(await refusal(() => pubsub.unsubscribe({ channel: 'nope' }))).toBe('channel[nope] is not subscribed');
    expect(await refusal(() => pubsub.unsubscribe({ channel: 5 }))).toBe('channel[5] is not subscribed');
    expect(await refusal(() => pubsub.unsubscribePresence({ channel: 'nope' }))).toBe(
      'channel[nope] is not subscribed',
    );
    expect(server.requests('unsubscribe')).toHaveLength(0);
  });

  it('PUB-11 PUB-14: limits of history, here-now and presence members', async () => {
    const { pubsub } = await connected();
    const onPresence = () => undefined;
    expect(await refusal(() => pubsub.history({ channel: 'a', limit: 0 }))).toBe(MESSAGES.historyLimitInvalid);
    expect(await refusal(() => pubsub.history({ channel: 'a', limit: 2.5 }))).toBe(MESSAGES.historyLimitInvalid);
    expect(await refusal(() => pubsub.hereNow({ channel: 'a', limit: 301 }))).toBe(MESSAGES.membersLimitInvalid);
    expect(await refusal(() => pubsub.hereNow({ channel: 'a', limit: 0 }))).toBe(MESSAGES.membersLimitInvalid);
    expect(await refusal(() => pubsub.hereNow({ channel: '' }))).toBe(MESSAGES.channelRequired);
    expect(await refusal(() => pubsub.subscribePresence({ channel: 'a', membersLimit: 301, onPresence }))).toBe(
      MESSAGES.membersLimitInvalid,
    );
    expect(await refusal(() => pubsub.subscribePresence({ channel: 'a' } as never))).toBe(MESSAGES.onPresenceRequired);
  });

  it('REQ-6: calls before connect() fail with Please call connect() first.; the module must be enabled', async () => {
    const server = new FakeServer();
    const client = createClient({ host: 'h', appkey: 'k', modules: ['pubsub'], transport: server.transport });
    await expect(client.pubsub.publish({ channel: 'a', message: 'hi' })).rejects.toMatchObject({
      code: 409,
      content: MESSAGES.callConnectFirst,
    });
    const imOnly = createClient({ host: 'h', appkey: 'k', modules: ['im'], transport: server.transport });
    expect(() => imOnly.pubsub).toThrow(MESSAGES.pubsubNotEnabled);
  });
});
