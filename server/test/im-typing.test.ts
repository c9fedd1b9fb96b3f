import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../src/protocol.js';
import { request, startServer } from './helpers.js';
import { accept, customerSays, goOnline } from './cs-support.js';
import { collect, content, login, settled } from './im-support.js';

describe('IM: typing (TYPING-1, TYPING-2)', () => {
  it('TYPING-2: a private chat’s other side hears who types, on each of their devices, and stores nothing', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const alicePhone = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const bobPhone = await login(url, 'bob');
    const carol = await login(url, 'carol');
    const heard = [alicePhone, bob, bobPhone, carol].map((s) => collect(s, 'IM_TYPING'));
    await content(alice, 'IM_TYPING', { scene: 'private', targetId: 'bob', typing: true });
    await content(alice, 'IM_TYPING', { scene: 'private', targetId: 'bob', typing: false });
    await settled(alicePhone, bob, bobPhone, carol);
    const typing = { scene: 'private', targetId: 'alice', userId: 'alice', userData: '{"name":"alice"}' };
    const told = [
      { ...typing, typing: true },
      { ...typing, typing: false },
    ];
    expect(heard).toEqual([[], told, told, []]);
    // Nothing to list or page: typing is not a message.
    expect(await content<unknown[]>(bob, 'imLastConversations', {})).toEqual([]);
  });

  it('TYPING-2: a group’s other members hear who types; only a member may say so', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const carol = await login(url, 'carol');
    await content(alice, 'subscribeGroups', { groupIds: ['g1'] });
    await content(bob, 'subscribeGroups', { groupIds: ['g1'] });
    const heard = [alice, bob, carol].map((s) => collect(s, 'IM_TYPING'));
    await content(alice, 'IM_TYPING', { scene: 'group', targetId: 'g1', typing: true });
    expect(await request(carol, 'IM_TYPING', { scene: 'group', targetId: 'g1', typing: true })).toMatchObject({
      code: 401,
      content: MESSAGES.noPermission,
    });
    await settled(alice, bob, carol);
    expect(heard).toEqual([
      [],
      [{ scene: 'group', targetId: 'g1', userId: 'alice', userData: '{"name":"alice"}', typing: true }],
      [],
    ]);
  });

  it('TYPING-1: bad requests get the spec’s words', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ scene: 'private', targetId: 'alice', typing: true }, MESSAGES.toSelf],
      [{ scene: 'private', targetId: 'bob', typing: 'yes' }, MESSAGES.typingNotBoolean],
      [{ scene: 'channel', targetId: 'bob', typing: true }, MESSAGES.sceneNotSupported],
    ];
    for (const [params, message] of cases) {
      expect(await request(alice, 'IM_TYPING', params), JSON.stringify(params)).toMatchObject({
        code: 400,
        content: message,
      });
    }
  });

  it('TYPING-4: a customer and the agent who accepted them hear each other type; nobody else does', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const carol = await login(url, 'carol');
    const outsider = await login(url, 'dave');
    await goOnline(alice, 'team1', 'Alice');
    await goOnline(bob, 'team1', 'Bob');
    const heard = [alice, bob, carol].map((s) => collect(s, 'IM_TYPING'));
    // Not yet accepted: nobody to tell, and no agent may say they type to her.
    await content(carol, 'IM_TYPING', { scene: 'cs', targetId: 'team1', typing: true });
    const notYours = { code: 400, content: MESSAGES.csNotYourCustomer };
    expect(
      await request(alice, 'IM_TYPING', { scene: 'cs', targetId: 'carol', teamId: 'team1', typing: true }),
    ).toMatchObject(notYours);
    await accept(alice, 'team1', 'carol');
    await content(carol, 'IM_TYPING', { scene: 'cs', targetId: 'team1', typing: true });
    await content(alice, 'IM_TYPING', { scene: 'cs', targetId: 'carol', teamId: 'team1', typing: true });
    // Another agent of the team did not accept her; someone outside it may not name her at all.
    expect(
      await request(bob, 'IM_TYPING', { scene: 'cs', targetId: 'carol', teamId: 'team1', typing: true }),
    ).toMatchObject(notYours);
    expect(
      await request(outsider, 'IM_TYPING', { scene: 'cs', targetId: 'carol', teamId: 'team1', typing: true }),
    ).toMatchObject({ code: 401, content: MESSAGES.noPermission });
    await settled(alice, bob, carol);
    expect(heard).toEqual([
      [
        {
          scene: 'cs',
          targetId: 'carol',
          teamId: 'team1',
          userId: 'carol',
          userData: '{"name":"carol"}',
          typing: true,
        },
      ],
      [],
      [
        {
          scene: 'cs',
          targetId: 'team1',
          teamId: 'team1',
          userId: 'alice',
          userData: '{"name":"alice"}',
          typing: true,
        },
      ],
    ]);
  });

  it('TYPING-4: a waiting customer is heard typing by every online agent of the team, as their messages are', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const carol = await login(url, 'carol');
    const erin = await login(url, 'erin');
    await goOnline(alice, 'team1', 'Alice');
    await goOnline(bob, 'team1', 'Bob');
    // An agent of another team hears nothing of team1's customers.
    await goOnline(erin, 'team2', 'Erin');
    const heard = [alice, bob, erin].map((s) => collect(s, 'IM_TYPING'));
    await customerSays(carol, 'team1');
    await content(carol, 'IM_TYPING', { scene: 'cs', targetId: 'team1', typing: true });
    // Once accepted, only the agent who took her.
    await accept(alice, 'team1', 'carol');
    await content(carol, 'IM_TYPING', { scene: 'cs', targetId: 'team1', typing: false });
    await settled(alice, bob, carol, erin);
    const typing = (on: boolean) => ({
      scene: 'cs',
      targetId: 'carol',
      teamId: 'team1',
      userId: 'carol',
      userData: '{"name":"carol"}',
      typing: on,
    });
    expect(heard).toEqual([[typing(true), typing(false)], [typing(true)], []]);
  });
});
