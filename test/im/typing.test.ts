import { describe, expect, it } from 'vitest';
import { TYPING } from '../../src/protocol/index.js';
import type { TypingEvent } from '../../src/index.js';
import { fakeIm } from '../support/fake-im.js';
import { fakeSetup } from '../support/setup.js';
import { useFakeClock } from '../support/clock.js';

const tick = useFakeClock();

async function connectedIm() {
  const setup = fakeSetup({ modules: ['im'], random: () => 0.5 });
  const fake = fakeIm(setup.server, 'me');
  setup.server.handle('IM_TYPING', () => ({ code: 200, resultCode: 200, content: null }));
  await Promise.all([setup.client.connect({ id: 'me', data: { name: 'Me' } }), tick()]);
  const events: TypingEvent[] = [];
  setup.client.im.on('TYPING', (e) => events.push(e));
  return { ...setup, fake, im: setup.client.im, events };
}

/** What the client told the server, in order. */
const told = (server: ReturnType<typeof fakeSetup>['server']) => server.requests('IM_TYPING').map((r) => r.params);

describe('typing indicators (TYPING-1..TYPING-3)', () => {
  it('TYPING-1: keystrokes go out at most once every 3 s per conversation, and a stop 5 s after the last', async () => {
    const { im, server } = await connectedIm();
    await im.keystroke({ type: 'private', id: 'bob' });
    await tick(1_000);
    await im.keystroke({ type: 'private', id: 'bob' });
    await im.keystroke({ type: 'group', id: 'g1' });
    expect(told(server)).toEqual([
      { scene: 'private', targetId: 'bob', typing: true },
      { scene: 'group', targetId: 'g1', typing: true },
    ]);
    // Still typing past the refresh: told again, so that the other side's 6 s do not run out.
    await tick(TYPING.refreshMs);
    await im.keystroke({ type: 'private', id: 'bob' });
    expect(told(server)).toHaveLength(3);
    // Idle: each conversation's stop, 5 s after its own last keystroke.
    await tick(TYPING.idleMs);
    expect(told(server).slice(3)).toEqual([
      { scene: 'group', targetId: 'g1', typing: false },
      { scene: 'private', targetId: 'bob', typing: false },
    ]);
    await tick(TYPING.idleMs);
    expect(told(server)).toHaveLength(5);
  });

  it('TYPING-1: stopTyping tells at once, only after a keystroke; a message sent there ends typing quietly', async () => {
    const { im, server } = await connectedIm();
    await im.stopTyping({ type: 'private', id: 'bob' });
    expect(told(server)).toEqual([]);
    await im.keystroke({ type: 'private', id: 'bob' });
    await im.stopTyping({ type: 'private', id: 'bob' });
    expect(told(server)).toEqual([
      { scene: 'private', targetId: 'bob', typing: true },
      { scene: 'private', targetId: 'bob', typing: false },
    ]);
    await im.keystroke({ type: 'private', id: 'bob' });
    await im.sendMessage({ message: im.createTextMessage({ text: 'hi', to: { type: 'private', id: 'bob' } }) });
    await tick(TYPING.idleMs * 2);
    // No stop after the message: its receiver ends my typing with it.
    expect(told(server).map((p) => p['typing'])).toEqual([true, false, true]);
  });

  it('TYPING-1: checks the conversation in the spec’s words, and needs a connection', async () => {
    const { im, client } = await connectedIm();
    await expect(im.keystroke({ type: 'private', id: 'me' })).rejects.toMatchObject({
      code: 400,
      content: 'to.id can not be the same as your id.',
    });
    await expect(im.keystroke({ type: 'private', id: ' ' })).rejects.toMatchObject({
      content: 'id could not be empty.',
    });
    expect(() => im.typingUsers({ type: 'channel', id: 'x' } as never)).toThrow('scene not support');
    await Promise.all([client.disconnect(), tick()]);
    await expect(im.keystroke({ type: 'private', id: 'bob' })).rejects.toThrow('Please call connect() first.');
  });

  it('TYPING-1: a keystroke the server refused is tried again at the next one', async () => {
    const { im, server } = await connectedIm();
    server.handle('IM_TYPING', () => ({ code: 401, resultCode: 401, content: 'no permission' }));
    await expect(im.keystroke({ type: 'group', id: 'g9' })).rejects.toMatchObject({ code: 401 });
    await expect(im.keystroke({ type: 'group', id: 'g9' })).rejects.toMatchObject({ code: 401 });
    await tick(TYPING.idleMs);
    expect(told(server).map((p) => p['typing'])).toEqual([true, true]);
  });

  it('TYPING-2: others typing are listed and told of until they stop, write, or are not heard from for 6 s', async () => {
    const { im, server, fake, events } = await connectedIm();
    const push = (userId: string, targetId: string, scene: 'private' | 'group', typing: boolean) =>
      server.push('IM_TYPING', { scene, targetId, userId, userData: JSON.stringify({ name: userId }), typing });
    push('bob', 'g1', 'group', true);
    push('carol', 'g1', 'group', true);
    push('bob', 'bob', 'private', true);
    await tick();
    expect(im.typingUsers({ type: 'group', id: 'g1' })).toEqual([
      { id: 'bob', data: { name: 'bob' } },
      { id: 'carol', data: { name: 'carol' } },
    ]);
    expect(events.map((e) => [e.conversation.type, e.user.id, e.typing, e.users.length])).toEqual([
      ['group', 'bob', true, 1],
      ['group', 'carol', true, 2],
      ['private', 'bob', true, 1],
    ]);
    // Told again: no new event; the 6 s start over.
    await tick(TYPING.expireMs - 1_000);
    push('bob', 'g1', 'group', true);
    await tick(1_000);
    expect(events.slice(3).map((e) => [e.conversation.id, e.user.id, e.typing])).toEqual([
      ['g1', 'carol', false],
      ['bob', 'bob', false],
    ]);
    expect(im.typingUsers({ type: 'group', id: 'g1' })).toEqual([{ id: 'bob', data: { name: 'bob' } }]);
    // A stop, and a message, end typing at once.
    push('bob', 'g1', 'group', false);
    push('dave', 'dave', 'private', true);
    await tick();
    fake.fromPeer('dave', 'hello');
    await tick();
    expect(events.slice(5).map((e) => [e.conversation.id, e.user.id, e.typing, e.users])).toEqual([
      ['g1', 'bob', false, []],
      ['dave', 'dave', true, [{ id: 'dave', data: { name: 'dave' } }]],
      ['dave', 'dave', false, []],
    ]);
    expect(im.typingUsers({ type: 'private', id: 'dave' })).toEqual([]);
    // My own typing, from another device, is not someone typing.
    push('me', 'g1', 'group', true);
    await tick();
    expect(events).toHaveLength(8);
  });

  it('TYPING-3: a lost link forgets who was typing, since their stop may never come', async () => {
    const { im, server, events, client } = await connectedIm();
    server.push('IM_TYPING', { scene: 'group', targetId: 'g1', userId: 'bob', userData: '{}', typing: true });
    await tick();
    await im.keystroke({ type: 'group', id: 'g1' });
    server.dropAll();
    await tick();
    expect(client.getConnectionStatus()).toBe('reconnecting');
    expect(events.map((e) => e.typing)).toEqual([true, false]);
    expect(im.typingUsers({ type: 'group', id: 'g1' })).toEqual([]);
    // Not told while the link is down: it would arrive late.
    await expect(im.keystroke({ type: 'private', id: 'bob' })).rejects.toMatchObject({
      code: 409,
      content: 'Please connect first',
    });
    // Nothing of mine is left to stop.
    await tick(TYPING.idleMs * 2);
    expect(told(server).map((p) => p['typing'])).toEqual([true]);
  });
});

describe('typing in customer service (TYPING-4)', () => {
  it('a customer types to the team, an agent to a customer; each hears the other', async () => {
    const { im, server, events } = await connectedIm();
    await im.keystroke({ type: 'cs', id: 'team1' });
    await im.csteam('team1').keystroke({ customerId: 'carol' });
    expect(told(server)).toEqual([
      { scene: 'cs', targetId: 'team1', typing: true },
      { scene: 'cs', targetId: 'carol', teamId: 'team1', typing: true },
    ]);
    await im.csteam('team1').stopTyping({ customerId: 'carol' });
    expect(told(server)[2]).toEqual({ scene: 'cs', targetId: 'carol', teamId: 'team1', typing: false });
    // As the agent: the customer types; as a customer: the agent does.
    server.push('IM_TYPING', {
      scene: 'cs',
      targetId: 'carol',
      teamId: 'team1',
      userId: 'carol',
      userData: '{"name":"Carol"}',
      typing: true,
    });
    server.push('IM_TYPING', {
      scene: 'cs',
      targetId: 'team2',
      teamId: 'team2',
      userId: 'alice',
      userData: '{"name":"Alice"}',
      typing: true,
    });
    await tick();
    expect(events.map((e) => e.conversation)).toEqual([
      { type: 'cs', id: 'carol', teamId: 'team1' },
      { type: 'cs', id: 'team2', teamId: 'team2' },
    ]);
    expect(im.csteam('team1').typingUsers({ customerId: 'carol' })).toEqual([{ id: 'carol', data: { name: 'Carol' } }]);
    expect(im.typingUsers({ type: 'cs', id: 'team2' })).toEqual([{ id: 'alice', data: { name: 'Alice' } }]);
    expect(im.typingUsers({ type: 'cs', id: 'carol', teamId: 'team2' })).toEqual([]);
  });

  it('a customer’s message tells the agent its typing stopped, since the agent hears no event for it', async () => {
    const { im, server } = await connectedIm();
    server.handle('publishIM', () => ({ code: 200, resultCode: 200, content: { timestamp: 5, sessionId: 5 } }));
    await im.keystroke({ type: 'cs', id: 'team1' });
    await im.sendMessage({ message: im.createTextMessage({ text: 'help', to: { type: 'cs', id: 'team1' } }) });
    await tick();
    expect(told(server)).toEqual([
      { scene: 'cs', targetId: 'team1', typing: true },
      { scene: 'cs', targetId: 'team1', typing: false },
    ]);
    await expect(im.csteam('team1').keystroke({ customerId: ' ' })).rejects.toMatchObject({
      content: 'id could not be empty.',
    });
  });
});
