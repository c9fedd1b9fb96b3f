/**
 * The SDK's API fed generated arguments, against the real server: whatever an app passes, a call returns, or throws
 * or rejects with a `ParleyError` carrying a numeric code and the spec's message; nothing else escapes (no
 * `TypeError` from inside the SDK), nothing hangs, and the client keeps working afterwards.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createClient, ParleyError, type Message, type ParleyClient } from '../../src/index.js';
import { OPEN_APP, defer, startServer } from '../../server/test/helpers.js';
import { anyValue, brokenRequest, FUZZ_RUNS, type Pools } from '../../server/test/fuzz-support.js';

/** Longer than any request's total timeout would be a hang. */
const SETTLE_MS = 15_000;

/** A client of the open app with IM and pub/sub, connected as `id`. */
async function user(url: string, id: string): Promise<ParleyClient> {
  const client = createClient({ host: url, appkey: OPEN_APP.appkey, modules: ['im', 'pubsub'] });
  defer(() => client.disconnect());
  await client.connect({ id, data: { name: id } });
  return client;
}

/** Runs `call`; passes when it returns or settles, or fails with a well-formed ParleyError; fails otherwise. */
async function expectParleyOutcome(where: string, call: () => unknown): Promise<void> {
  let outcome: unknown;
  try {
    outcome = call();
  } catch (error) {
    expectParleyError(where, error);
    return;
  }
  if (!(outcome instanceof Promise)) return;
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<'hang'>((resolve) => {
    timer = setTimeout(() => resolve('hang'), SETTLE_MS);
  });
  try {
    const settled = await Promise.race([outcome.then(() => 'settled'), hang]);
    expect(settled, `${where}: did not settle`).toBe('settled');
  } catch (error) {
    expectParleyError(where, error);
  } finally {
    clearTimeout(timer);
  }
}

function expectParleyError(where: string, error: unknown): void {
  if (!(error instanceof ParleyError)) {
    throw new Error(`${where}: threw ${String(error)}`, { cause: error });
  }
  expect(typeof error.code, where).toBe('number');
  expect(typeof error.content, where).toBe('string');
  expect(error.content.length, where).toBeGreaterThan(0);
}

const describeInput = (input: unknown) => {
  try {
    return JSON.stringify(input)?.slice(0, 300) ?? String(input);
  } catch {
    return String(input);
  }
};

describe('any arguments', () => {
  it('get a result or a ParleyError from every call of the SDK, never another error or a hang', async () => {
    const { url } = await startServer({ rateLimit: { perSecond: 100_000, burst: 100_000 } });
    const alice = await user(url, 'alice');
    const bob = await user(url, 'bob');
    // Something to act on: a private chat, a group, a team, a channel.
    await alice.im.subscribeGroup({ groupIds: ['g1'] });
    const sent: Message[] = [];
    for (const to of [
      { type: 'private', id: 'bob' },
      { type: 'group', id: 'g1' },
    ] as const) {
      sent.push(await alice.im.sendMessage({ message: alice.im.createTextMessage({ text: 'hi', to }) }));
    }
    await bob.im.csteam('t1').online({ teamData: { name: 'T' }, agentData: { name: 'Bob' } });
    const onMessage = () => undefined;
    await alice.pubsub.subscribe({ channel: 'news', onMessage });
    const times = sent.map((m) => m.timestamp);
    const pools: Pools = {
      ids: ['alice', 'bob', 'g1', 't1', 'news', 'nobody'],
      times: [...times, 0, 1, Date.now() + 60_000],
      keys: ['type', 'id', 'to', 'text', 'payload', 'data', 'teamId', 'limit', 'lastTimestamp', 'channel', 'message'],
    };
    const conversation = { type: 'private', userId: 'bob' };
    const im = alice.im;
    const bobTarget = { type: 'private', id: 'bob' };
    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'a.png', { type: 'image/png' });
    const txt = new File(['text'], 'a.txt', { type: 'text/plain' });
    const mp3 = new File([new Uint8Array([0xff, 0xfb])], 'a.mp3', { type: 'audio/mpeg' });
    const mp4 = new File([new Uint8Array([0, 0, 0, 24])], 'a.mp4', { type: 'video/mp4' });
    const team = bob.im.csteam('t1');
    const calls: Array<[name: string, bases: Array<Record<string, unknown>>, call: (input: never) => unknown]> = [
      [
        'createTextMessage',
        [{ text: 'hi', to: { type: 'private', id: 'bob', data: { name: 'Bob' } } }],
        (o) => im.createTextMessage(o),
      ],
      [
        'createCustomMessage',
        [{ type: 'order', payload: { n: 1 }, to: { type: 'group', id: 'g1' } }],
        (o) => im.createCustomMessage(o),
      ],
      ['createImageMessage', [{ file: png, to: bobTarget, width: 1, height: 1 }], (o) => im.createImageMessage(o)],
      ['createFileMessage', [{ file: txt, to: bobTarget }], (o) => im.createFileMessage(o)],
      ['createAudioMessage', [{ file: mp3, to: bobTarget, duration: 1 }], (o) => im.createAudioMessage(o)],
      ['createVideoMessage', [{ file: mp4, to: bobTarget, thumbnail: png }], (o) => im.createVideoMessage(o)],
      [
        'history',
        [
          { type: 'private', id: 'bob', lastTimestamp: times[0], limit: 10 },
          { type: 'group', id: 'g1' },
        ],
        (o) => im.history(o),
      ],
      [
        'markMessageAsRead',
        [
          { type: 'private', id: 'bob' },
          { type: 'group', id: 'g1' },
        ],
        (o) => im.markMessageAsRead(o),
      ],
      [
        'keystroke',
        [
          { type: 'private', id: 'bob' },
          { type: 'group', id: 'g1' },
          { type: 'cs', id: 't1' },
        ],
        (o) => im.keystroke(o),
      ],
      ['stopTyping', [{ type: 'group', id: 'g1' }], (o) => im.stopTyping(o)],
      ['typingUsers', [{ type: 'private', id: 'bob' }], (o) => im.typingUsers(o)],
      ['topConversation', [{ conversation, top: true }], (o) => im.topConversation(o)],
      ['removeConversation', [{ conversation: { type: 'group', groupId: 'g2' } }], (o) => im.removeConversation(o)],
      ['subscribeGroup', [{ groupIds: ['g1', 'g2'] }], (o) => im.subscribeGroup(o)],
      ['unsubscribeGroup', [{ groupId: 'g2' }], (o) => im.unsubscribeGroup(o)],
      ['subscribeUserPresence', [{ userIds: ['bob'] }], (o) => im.subscribeUserPresence(o)],
      ['unsubscribeUserPresence', [{ userId: 'bob' }], (o) => im.unsubscribeUserPresence(o)],
      ['subscribeGroupPresence', [{ groupIds: ['g1'] }], (o) => im.subscribeGroupPresence(o)],
      ['unsubscribeGroupPresence', [{ groupId: 'g1' }], (o) => im.unsubscribeGroupPresence(o)],
      ['hereNow', [{ userIds: ['bob', 'nobody'] }], (o) => im.hereNow(o)],
      ['groupHereNow', [{ groupId: 'g1' }], (o) => im.groupHereNow(o)],
      ['groupOnlineCount', [{ groupId: 'g1' }], (o) => im.groupOnlineCount(o)],
      ['csteam.online', [{ teamData: { name: 'T' }, agentData: { name: 'Bob' } }], (o) => team.online(o)],
      ['csteam.accept', [{ customer: { id: 'alice', data: { name: 'Alice' } } }], (o) => team.accept(o)],
      ['csteam.end', [{ id: 'alice' }], (o) => team.end(o)],
      ['csteam.transfer', [{ customerId: 'alice', agentId: 'bob' }], (o) => team.transfer(o)],
      ['csteam.customerStatus', [{ id: 'alice' }], (o) => team.customerStatus(o)],
      ['csteam.history', [{ customerId: 'alice', limit: 5 }], (o) => team.history(o)],
      ['csteam.markMessageAsRead', [{ customerId: 'alice' }], (o) => team.markMessageAsRead(o)],
      ['csteam.keystroke', [{ customerId: 'alice' }], (o) => team.keystroke(o)],
      ['csteam.stopTyping', [{ customerId: 'alice' }], (o) => team.stopTyping(o)],
      ['csteam.typingUsers', [{ customerId: 'alice' }], (o) => team.typingUsers(o)],
      ['pubsub.publish', [{ channel: 'news', message: 'hi', qos: 1 }], (o) => alice.pubsub.publish(o)],
      [
        'pubsub.subscribe',
        [
          { channel: 'news', presence: { enable: true }, onMessage },
          { channels: ['a', 'b'], onMessage },
        ],
        (o) => alice.pubsub.subscribe(o),
      ],
      ['pubsub.unsubscribe', [{ channel: 'b' }], (o) => alice.pubsub.unsubscribe(o)],
      [
        'pubsub.subscribePresence',
        [{ channel: 'news', onPresence: onMessage }],
        (o) => alice.pubsub.subscribePresence(o),
      ],
      ['pubsub.unsubscribePresence', [{ channel: 'news' }], (o) => alice.pubsub.unsubscribePresence(o)],
      ['pubsub.hereNow', [{ channel: 'news', limit: 10 }], (o) => alice.pubsub.hereNow(o)],
      ['pubsub.history', [{ channel: 'news', limit: 10 }], (o) => alice.pubsub.history(o)],
    ];
    for (const [name, bases, call] of calls) {
      await fc.assert(
        fc.asyncProperty(brokenRequest(bases, pools), async (input) => {
          await expectParleyOutcome(`${name} ${describeInput(input)}`, () => call(input as never));
        }),
        { numRuns: FUZZ_RUNS },
      );
    }

    // Calls that take messages: real ones of every status, mixed with anything at all.
    const value = anyValue(pools);
    const messages = fc.array(fc.oneof(fc.constantFrom(...sent), value), { maxLength: 4 });
    for (const [name, call] of [
      ['recallMessage', (o: never) => im.recallMessage(o)],
      ['deleteMessage', (o: never) => im.deleteMessage(o)],
    ] as const) {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            messages.map((list) => ({ messages: list })),
            value,
          ),
          async (input) => {
            await expectParleyOutcome(`${name} ${describeInput(input)}`, () => call(input as never));
          },
        ),
        { numRuns: FUZZ_RUNS },
      );
    }
    // sendMessage: a message made from generated options (when they make one), or anything else, sent.
    const textOptions = brokenRequest([{ text: 'hi', to: { type: 'private', id: 'bob' } }], pools);
    await fc.assert(
      fc.asyncProperty(textOptions, value, fc.boolean(), async (options, other, made) => {
        let message: unknown = other;
        if (made) {
          try {
            message = im.createTextMessage(options as never);
          } catch (error) {
            expectParleyError('createTextMessage', error);
          }
        }
        await expectParleyOutcome(`sendMessage ${describeInput(message)}`, () => im.sendMessage({ message } as never));
      }),
      { numRuns: FUZZ_RUNS },
    );
    // Whole arguments that are not options at all.
    const whole = fc.oneof(value, fc.constant(undefined));
    for (const [name, , call] of calls) {
      await fc.assert(
        fc.asyncProperty(whole, async (input) => {
          await expectParleyOutcome(`${name} ${describeInput(input)}`, () => call(input as never));
        }),
        { numRuns: Math.ceil(FUZZ_RUNS / 4) },
      );
    }

    // connect: each case on a client of its own, which must then disconnect cleanly.
    await fc.assert(
      fc.asyncProperty(brokenRequest([{ id: 'carol', data: { name: 'Carol' } }], pools), async (input) => {
        const client = createClient({ host: url, appkey: OPEN_APP.appkey, modules: ['im', 'pubsub'] });
        await expectParleyOutcome(`connect ${describeInput(input)}`, () => client.connect(input as never));
        await client.disconnect();
        expect(client.getConnectionStatus()).toBe('disconnected');
      }),
      { numRuns: Math.ceil(FUZZ_RUNS / 4) },
    );

    // Still working: a message goes from alice to bob and comes back in history.
    const last = await im.sendMessage({
      message: im.createTextMessage({ text: 'still here', to: { type: 'private', id: 'bob' } }),
    });
    expect(last.status).toBe('success');
    const page = await bob.im.history({ type: 'private', id: 'alice', limit: 1 });
    expect(page.map((m) => m.messageId)).toContain(last.messageId);
  }, 300_000);
});
