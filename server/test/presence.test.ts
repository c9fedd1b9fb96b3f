import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../src/protocol.js';
import { OPEN_APP, request, startServer } from './helpers.js';
import { collect, content, leave, login, next, settled } from './im-support.js';

interface PresenceEvent {
  userId: string;
  userData: string;
  time: number;
  action: string;
}
interface GroupPresence {
  groupId: string;
  userAmount: number;
  events: PresenceEvent[];
}

/** The decoded `c` of a presence push. */
function body<T>(push: Record<string, unknown>): T {
  expect(typeof push['c']).toBe('string');
  return JSON.parse(push['c'] as string) as T;
}

describe('presence', () => {
  it('PRES-1, PRES-2, PRES-3: subscribers hear online on the first connection and offline after the last', async () => {
    const { url, server } = await startServer();
    const carol = await login(url, 'carol');
    expect(await request(carol, 'subscribeUserPresence', { userIds: ['bob', 'dave'] })).toMatchObject({ code: 200 });
    const got = collect<Record<string, unknown>>(carol, 'userPresence');

    const online = next<Record<string, unknown>>(carol, 'userPresence');
    const before = Date.now();
    const phone = await login(url, 'bob');
    expect(body<{ events: PresenceEvent[] }>(await online)).toEqual({
      events: [{ userId: 'bob', userData: '{"name":"bob"}', time: expect.any(Number), action: 'online' }],
    });
    expect(body<{ events: PresenceEvent[] }>(got[0] ?? {}).events[0]?.time).toBeGreaterThanOrEqual(before);
    const laptop = await login(url, 'bob');
    await leave(server, phone);
    await settled(carol);
    expect(got).toHaveLength(1);

    const offline = next<Record<string, unknown>>(carol, 'userPresence');
    await leave(server, laptop);
    expect(body<{ events: PresenceEvent[] }>(await offline).events).toEqual([
      expect.objectContaining({ userId: 'bob', action: 'offline' }),
    ]);

    // Subscriptions are kept by the server: a new connection of the subscriber still hears, until unsubscribed.
    await leave(server, carol);
    const carolAgain = await login(url, 'carol');
    const back = next<Record<string, unknown>>(carolAgain, 'userPresence');
    await login(url, 'dave');
    expect(body<{ events: PresenceEvent[] }>(await back).events[0]).toMatchObject({ userId: 'dave' });
    await content(carolAgain, 'unsubscribeUserPresence', { userId: 'bob' });
    const later = collect(carolAgain, 'userPresence');
    await login(url, 'bob');
    await settled(carolAgain);
    expect(later).toEqual([]);
  });

  it('PRES-4: group presence subscribers hear join, leave, online and offline with the online count', async () => {
    const { url, server } = await startServer();
    const dave = await login(url, 'dave');
    await content(dave, 'subscribeGroupPresence', { groupIds: ['g1'] });
    const alice = await login(url, 'alice');
    const joined = next<Record<string, unknown>>(dave, 'groupPresence');
    await content(alice, 'subscribeGroups', { groupIds: ['g1'] });
    expect(body<GroupPresence>(await joined)).toEqual({
      groupId: 'g1',
      userAmount: 1,
      events: [{ userId: 'alice', userData: '{"name":"alice"}', time: expect.any(Number), action: 'join' }],
    });
    // Joining again changes nothing and says nothing.
    const quiet = collect(dave, 'groupPresence');
    await content(alice, 'subscribeGroups', { groupIds: ['g1'] });
    await settled(dave);
    expect(quiet).toEqual([]);

    const bob = await login(url, 'bob');
    const bobJoined = next<Record<string, unknown>>(dave, 'groupPresence');
    await content(bob, 'subscribeGroups', { groupIds: ['g1'] });
    expect(body<GroupPresence>(await bobJoined)).toMatchObject({ userAmount: 2, events: [{ action: 'join' }] });

    const offline = next<Record<string, unknown>>(dave, 'groupPresence');
    await leave(server, bob);
    expect(body<GroupPresence>(await offline)).toMatchObject({
      groupId: 'g1',
      userAmount: 1,
      events: [{ userId: 'bob', action: 'offline' }],
    });
    const online = next<Record<string, unknown>>(dave, 'groupPresence');
    const bobAgain = await login(url, 'bob');
    expect(body<GroupPresence>(await online)).toMatchObject({ userAmount: 2, events: [{ action: 'online' }] });
    const left = next<Record<string, unknown>>(dave, 'groupPresence');
    await content(bobAgain, 'unsubscribeGroup', { groupId: 'g1' });
    expect(body<GroupPresence>(await left)).toMatchObject({
      userAmount: 1,
      events: [{ userId: 'bob', action: 'leave' }],
    });

    await content(dave, 'unsubscribeGroupPresence', { groupId: 'g1' });
    const none = collect(dave, 'groupPresence');
    await leave(server, alice);
    await settled(dave);
    expect(none).toEqual([]);
  });

  it('PRES-5: hereNow, groupHereNow and groupOnlineCount answer who is online', async () => {
    const { url, server } = await startServer();
    const alice = await login(url, 'alice', { userData: JSON.stringify({ name: 'Alice' }) });
    const bob = await login(url, 'bob');
    await login(url, '', { userId: null, a: true });
    await content(alice, 'subscribeGroups', { groupIds: ['g1'] });
    await content(bob, 'subscribeGroups', { groupIds: ['g1'] });
    const carol = await login(url, 'carol');
    await content(carol, 'subscribeGroups', { groupIds: ['g1'] });
    await leave(server, carol);

    expect(await content(bob, 'imHereNow', { userIds: ['alice', 'carol', 'bob', 'ghost'], extra: 1 })).toEqual([
      { userId: 'alice', userData: '{"name":"Alice"}' },
      { userId: 'bob', userData: '{"name":"bob"}' },
    ]);
    expect(await content(bob, 'imGroupHereNow', { groupId: 'g1' })).toEqual([
      { userId: 'alice', userData: '{"name":"Alice"}' },
      { userId: 'bob', userData: '{"name":"bob"}' },
    ]);
    expect(await content(bob, 'imGroupOnlineCount', { groupId: 'g1' })).toEqual({ count: 2 });
    expect(await content(bob, 'imGroupOnlineCount', { groupId: 'nobody' })).toEqual({ count: 0 });
    expect(await request(bob, 'imHereNow', { userIds: [] })).toMatchObject({ code: 400 });
  });

  it('PRES-2: presence subscriptions need the write permission', async () => {
    const { url } = await startServer();
    const reader = await login(url, 'alice', { appkey: OPEN_APP.subscribeKey });
    expect(await request(reader, 'subscribeUserPresence', { userIds: ['bob'] })).toMatchObject({ code: 401 });
    expect(await request(reader, 'imHereNow', { userIds: ['bob'] })).toMatchObject({ code: 200 });
  });

  it('PRES-7, IM-28: a user joins at most 1000 groups and watches at most 1000 users and 1000 groups', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const ids = (prefix: string, from: number) => Array.from({ length: 250 }, (_, i) => `${prefix}${from + i}`);
    const cases = [
      { event: 'subscribeGroups', field: 'groupIds', message: MESSAGES.userGroupsTooMany },
      { event: 'subscribeUserPresence', field: 'userIds', message: MESSAGES.userPresenceTooMany },
      { event: 'subscribeGroupPresence', field: 'groupIds', message: MESSAGES.groupPresenceTooMany },
    ] as const;
    for (const { event, field, message } of cases) {
      const ask = (list: string[]) => request(alice, event, { [field]: list });
      // Five lists of 250 sent together: four fit, and the fifth is refused whichever comes last.
      const together = await Promise.all([0, 250, 500, 750, 1000].map((from) => ask(ids(event, from))));
      expect(
        together.filter((ack) => ack['code'] === 200),
        event,
      ).toHaveLength(4);
      expect(
        together.filter((ack) => ack['code'] === 400),
        event,
      ).toEqual([{ code: 400, resultCode: 400, content: message }]);
      const held = together.findIndex((ack) => ack['code'] === 200);
      // What is held costs nothing again; one more is refused.
      expect(await ask(ids(event, held * 250).slice(0, 10)), event).toMatchObject({ code: 200 });
      expect(await ask([`${event}-more`]), event).toMatchObject({ code: 400, content: message });
    }
    // Leaving makes room.
    await content(alice, 'unsubscribeGroup', { groupId: 'subscribeGroups0' });
    await content(alice, 'unsubscribeGroup', { groupId: 'subscribeGroups250' });
    expect(await request(alice, 'subscribeGroups', { groupIds: ['subscribeGroups-more'] })).toMatchObject({
      code: 200,
    });
  });
});
