import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { signToken } from '../src/auth/token.js';
import { MESSAGES } from '../src/protocol.js';
import { OPEN_APP, request, startServer, storesUnderTest, tempDir, TOKEN_APP } from './helpers.js';
import { collect, content, guid, login, next, publishParams, send, settled } from './im-support.js';

describe('IM: groups', () => {
  it('IM-20: only members get group messages, with the sender data; unsubscribing stops them', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const alicePhone = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const carol = await login(url, 'carol');
    const carolPhone = await login(url, 'carol');
    await content(alice, 'subscribeGroups', { groupIds: ['g1', 2] });
    await content(bob, 'subscribeGroups', { groupIds: ['g1'] });
    const carolGot = collect(carol, 'imMessage');
    const carolPhoneGot = collect(carolPhone, 'imMessage');
    const pushes = [alicePhone, bob].map((s) => next(s, 'imMessage'));
    const ts = await send(alice, 'g1', { t: 'group', d: '{"name":"G1"}' });
    const expected = { t: 'group', r: 'g1', s: 'alice', ts, d: '{"name":"alice"}' };
    for (const push of await Promise.all(pushes)) expect(push).toMatchObject(expected);
    // A non-member may send (the reference allows it, IM-22) but does not receive, not even on another device, and
    // the ack says so; members' acks do not carry the flag.
    const fromCarol = next(bob, 'imMessage');
    const carolAck = await request(carol, 'publishIM', publishParams('g1', { t: 'group' }));
    expect(carolAck).toMatchObject({ code: 200, content: { member: false } });
    expect(await fromCarol).toMatchObject({ s: 'carol' });
    const aliceAck = await request(alice, 'publishIM', publishParams('g1', { t: 'group' }));
    expect(aliceAck['content']).not.toHaveProperty('member');
    await settled(carol);
    await settled(carolPhone);
    expect(carolGot).toEqual([]);
    expect(carolPhoneGot).toEqual([]);
    // IM-16: nor is the group listed to the sender.
    expect(await content<unknown[]>(carol, 'imLastConversations', {})).toEqual([]);

    await content(bob, 'unsubscribeGroup', { groupId: 'g1' });
    const bobGot = collect(bob, 'imMessage');
    await send(alice, 'g1', { t: 'group' });
    await settled(bob);
    expect(bobGot).toEqual([]);
    // Number ids are the reference's too.
    const toTwo = next(alicePhone, 'imMessage');
    await send(bob, 2, { t: 'group' });
    expect(await toTwo).toMatchObject({ r: '2' });
  });

  it.each(storesUnderTest())(
    'IM-20: a new member lists a group with messages at once, nothing unread; one who comes back, what was missed (%s)',
    async (_name, store) => {
      const { url } = await startServer(store());
      const alice = await login(url, 'alice');
      const bob = await login(url, 'bob');
      const zed = await login(url, 'zed');
      await content(alice, 'subscribeGroups', { groupIds: ['g1', 'quiet'] });
      await content(bob, 'subscribeGroups', { groupIds: ['g1'] });
      const g1 = { t: 'group', d: '{"name":"G1"}' };
      await send(alice, 'g1', g1);
      const last = await send(alice, 'g1', g1);
      await content(bob, 'unsubscribeGroup', { groupId: 'g1' });
      await send(alice, 'g1', g1);
      const newest = await send(alice, 'g1', g1);
      expect(newest).toBeGreaterThan(last);

      // Zed never was a member: listed at once, the group's data shown, what came before not unread to him.
      await content(zed, 'subscribeGroups', { groupIds: ['g1', 'quiet'] });
      const zedList = await content<Array<Record<string, unknown>>>(zed, 'imLastConversations', {});
      expect(zedList).toEqual([
        expect.objectContaining({ t: 'group', d: g1.d, unread: 0, lmsg: expect.objectContaining({ ts: newest }) }),
      ]);
      // Bob was: the two messages said while he was away are unread.
      await content(bob, 'subscribeGroups', { groupIds: ['g1'] });
      const bobList = await content<Array<Record<string, unknown>>>(bob, 'imLastConversations', {});
      expect(bobList).toEqual([expect.objectContaining({ unread: 4, lmsg: expect.objectContaining({ ts: newest }) })]);
      // A later message counts for both.
      await send(alice, 'g1', g1);
      const again = await content<Array<{ unread: number }>>(zed, 'imLastConversations', {});
      expect(again.map((c) => c.unread)).toEqual([1]);
    },
  );

  it('IM-20: refuses bad group id arrays with the spec messages', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const sub = (groupIds: unknown) => request(alice, 'subscribeGroups', { groupIds });
    expect(await sub([])).toMatchObject({ code: 400, content: MESSAGES.idArrayEmpty });
    expect(await sub(['a', 'a'])).toMatchObject({ code: 400, content: MESSAGES.idArrayDuplicate });
    expect(await sub(Array.from({ length: 301 }, (_, n) => `g${n}`))).toMatchObject({
      code: 400,
      content: MESSAGES.idArrayTooLong,
    });
    expect(await sub(['x'.repeat(129)])).toMatchObject({ code: 400 });
    const anonymous = await login(url, '', { userId: null, a: true });
    expect(await request(anonymous, 'subscribeGroups', { groupIds: ['g'] })).toMatchObject({ code: 401 });
  });

  it('IM-20: membership survives a reconnect and a server restart', async () => {
    const sqlite = join(tempDir(), 'parley.db');
    const first = await startServer({ sqlite });
    const alice = await login(first.url, 'alice');
    await content(alice, 'subscribeGroups', { groupIds: ['g1'] });
    alice.close();
    const again = await login(first.url, 'alice');
    const sender = await login(first.url, 'bob');
    const got = next(again, 'imMessage');
    await send(sender, 'g1', { t: 'group' });
    expect(await got).toMatchObject({ r: 'g1', s: 'bob' });
    await first.server.close();

    const second = await startServer({ sqlite, port: first.port });
    const restarted = await login(second.url, 'alice');
    const bob = await login(second.url, 'bob');
    const after = next(restarted, 'imMessage');
    await send(bob, 'g1', { t: 'group' });
    expect(await after).toMatchObject({ r: 'g1', s: 'bob' });
    const history = await content<{ messages: unknown[] }>(restarted, 'IM_HISTORY', { id: 'g1', scene: 'group' });
    expect(history.messages).toHaveLength(2);
  });

  it('IM-21, IM-22: an app that requires access tokens checks them for joining and sending', async () => {
    const { url } = await startServer({ apps: [OPEN_APP, TOKEN_APP] });
    const alice = await login(url, 'alice', { appkey: TOKEN_APP.appkey });
    const mallory = await login(url, 'mallory', { appkey: TOKEN_APP.appkey });
    const token = (payload: Record<string, unknown>, secret = TOKEN_APP.secretKey) => signToken(secret, payload);
    const future = Date.now() + 60_000;
    const sub = (at: unknown, groupIds = ['g1', 'g2']) => request(alice, 'subscribeGroups', { groupIds, at });
    const refused = { code: 401, resultCode: 401, content: MESSAGES.noPermission };
    expect(await sub(undefined)).toEqual(refused);
    expect(await sub('garbage')).toEqual(refused);
    expect(await sub(token({ u: 'alice', g: ['g1', 'g2'], e: future }, 'wrong-secret'))).toEqual(refused);
    expect(await sub(token({ u: 'bob', g: ['g1', 'g2'], e: future }))).toEqual(refused);
    expect(await sub(token({ u: 'alice', g: ['g1'], e: future }))).toEqual(refused);
    expect(await sub(token({ u: 'alice', g: ['g1', 'g2'], e: Date.now() - 1 }))).toEqual(refused);
    expect(await sub(token({ u: 'alice', g: ['g1', 'g2', 'g3'], e: future }))).toMatchObject({ code: 200 });

    // Members send; others need a token naming the group.
    expect(await send(alice, 'g1', { t: 'group' })).toEqual(expect.any(Number));
    const post = (at?: string) => request(mallory, 'publishIM', { ...groupPost(), at });
    expect(await post()).toEqual(refused);
    expect(await post(token({ u: 'mallory', g: ['g2'], e: future }))).toEqual(refused);
    expect(await post(token({ u: 'mallory', g: ['g1'], e: future }))).toMatchObject({ code: 200 });
  });

  it('PRES-6: in an app that requires access tokens, group presence is for the group members', async () => {
    const { url } = await startServer({ apps: [OPEN_APP, TOKEN_APP] });
    const alice = await login(url, 'alice', { appkey: TOKEN_APP.appkey });
    const mallory = await login(url, 'mallory', { appkey: TOKEN_APP.appkey });
    const anonymous = await login(url, '', { appkey: TOKEN_APP.appkey, userId: null, a: true });
    const joined = signToken(TOKEN_APP.secretKey, { u: 'alice', g: ['g1'], e: Date.now() + 60_000 });
    expect(await request(alice, 'subscribeGroups', { groupIds: ['g1'], at: joined })).toMatchObject({ code: 200 });
    const refused = { code: 401, resultCode: 401, content: MESSAGES.noPermission };
    const looks = (socket: typeof alice) => [
      request(socket, 'imGroupHereNow', { groupId: 'g1' }),
      request(socket, 'imGroupOnlineCount', { groupId: 'g1' }),
      request(socket, 'subscribeGroupPresence', { groupIds: ['g1'] }),
    ];
    expect(await Promise.all(looks(mallory))).toEqual([refused, refused, refused]);
    expect(await Promise.all(looks(anonymous))).toEqual([refused, refused, refused]);
    // One group of a list that is not the user's refuses the whole subscribe.
    expect(await request(alice, 'subscribeGroupPresence', { groupIds: ['g1', 'g2'] })).toEqual(refused);
    expect(await Promise.all(looks(alice))).toEqual([
      expect.objectContaining({ code: 200, content: [{ userId: 'alice', userData: expect.any(String) }] }),
      expect.objectContaining({ code: 200, content: { count: 1 } }),
      expect.objectContaining({ code: 200 }),
    ]);
    // An open app's groups stay open, as in the reference.
    const bob = await login(url, 'bob');
    expect(await request(bob, 'imGroupOnlineCount', { groupId: 'g1' })).toMatchObject({ code: 200 });
  });
});

function groupPost(): Record<string, unknown> {
  return { mt: 'text', to: 'g1', d: '{}', p: '{"text":"hi"}', t: 'group', guid: guid(), retried: 0 };
}
