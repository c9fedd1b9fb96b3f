import { describe, expect, it } from 'vitest';
import type { AppConfig } from '../src/config.js';
import { signToken } from '../src/auth/token.js';
import { MESSAGES } from '../src/protocol.js';
import { OPEN_APP, SECURE_APP, request, startServer, TOKEN_APP } from './helpers.js';
import { collect, content, login, next, publishParams, settled } from './im-support.js';

/** Posts IM-30's send for `app` with its secret key (or `key`), answering the status and the body. */
async function post(url: string, body: unknown, app: AppConfig = OPEN_APP, key = app.secretKey) {
  const res = await fetch(`${url}/api/v1/apps/${app.appkey}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { code: number; content: unknown } };
}

const text = (value: string) => ({ type: 'text', payload: { text: value } });

describe('IM: the app’s server API (IM-30, IM-31)', () => {
  it('IM-30: sends a private message as a user: stored, and pushed to every connection of both', async () => {
    const { url } = await startServer();
    const alice = await login(url, 'alice');
    const alicePhone = await login(url, 'alice');
    const bob = await login(url, 'bob');
    const pushes = [alice, alicePhone, bob].map((s) => next(s, 'imMessage'));
    const sent = await post(url, {
      from: { id: 'alice' },
      to: { type: 'private', id: 'bob', data: { name: 'Bob' } },
      ...text('your order has shipped'),
      messageId: 'order-42-shipped',
    });
    expect(sent.status).toBe(200);
    const { messageId, timestamp } = sent.body.content as { messageId: string; timestamp: number };
    expect(messageId).toBe('order-42-shipped');
    for (const push of await Promise.all(pushes)) {
      expect(push).toMatchObject({
        t: 'private',
        s: 'alice',
        r: 'bob',
        i: messageId,
        ts: timestamp,
        mt: 'text',
        p: JSON.stringify({ text: 'your order has shipped' }),
      });
    }
    // In both histories, and in both lists: the receiver's unread, the sender's with the data sent of the receiver.
    const page = await content<{ messages: Array<Record<string, unknown>> }>(bob, 'IM_HISTORY', {
      scene: 'private',
      id: 'alice',
    });
    expect(page.messages.map((m) => m['i'])).toEqual([messageId]);
    const bobList = await content<Array<Record<string, unknown>>>(bob, 'imLastConversations', {});
    expect(bobList).toEqual([expect.objectContaining({ unread: 1, d: JSON.stringify({ name: 'alice' }) })]);
    const aliceList = await content<Array<Record<string, unknown>>>(alice, 'imLastConversations', {});
    expect(aliceList).toEqual([expect.objectContaining({ unread: 0, d: JSON.stringify({ name: 'Bob' }) })]);
  });

  it('sends once per messageId: a repeat answers the first timestamp and pushes nothing', async () => {
    const { url } = await startServer();
    const bob = await login(url, 'bob');
    const got = collect(bob, 'imMessage');
    const body = { from: { id: 'alice', data: { name: 'Shop' } }, to: { type: 'private', id: 'bob' }, ...text('hi') };
    const first = await post(url, { ...body, messageId: 'm-1' });
    const again = await post(url, { ...body, messageId: 'm-1' });
    expect(again.body).toEqual(first.body);
    // Without one, each send is a message of its own.
    const other = await post(url, body);
    expect((other.body.content as { messageId: string }).messageId).toMatch(/^[0-9a-f]{32}$/);
    await settled(bob);
    expect(got).toHaveLength(2);
    expect(got[0]).toMatchObject({ i: 'm-1', s: 'alice' });
  });

  it('sends once per messageId when repeats come at once: each request its own, the store keeps one (IM-3)', async () => {
    const { url } = await startServer();
    const bob = await login(url, 'bob');
    const got = collect(bob, 'imMessage');
    const body = { from: { id: 'alice' }, to: { type: 'private', id: 'bob' }, ...text('hi'), messageId: 'm-2' };
    const answers = await Promise.all([post(url, body), post(url, body), post(url, body)]);
    for (const answer of answers) expect(answer.body).toEqual(answers[0]?.body);
    await settled(bob);
    expect(got).toHaveLength(1);
  });

  it('sends to a group as a user, without the access token members need (IM-22)', async () => {
    const { url } = await startServer({ apps: [TOKEN_APP, OPEN_APP] });
    const bob = await login(url, 'bob', { appkey: TOKEN_APP.appkey });
    const joined = signToken(TOKEN_APP.secretKey, { u: 'bob', g: ['g1'], e: Date.now() + 60_000 });
    expect(await request(bob, 'subscribeGroups', { groupIds: ['g1'], at: joined })).toMatchObject({ code: 200 });
    const carol = await login(url, 'carol', { appkey: TOKEN_APP.appkey });
    // Carol's own client may not, being no member and holding no token.
    expect(await request(carol, 'publishIM', publishParams('g1', { t: 'group' }))).toMatchObject({ code: 401 });
    const push = next(bob, 'imMessage');
    const sent = await post(
      url,
      { from: { id: 'carol' }, to: { type: 'group', id: 'g1' }, type: 'notice', payload: 'the group is moving' },
      TOKEN_APP,
    );
    expect(sent.status).toBe(200);
    expect(await push).toMatchObject({ t: 'group', r: 'g1', s: 'carol', mt: 'notice', p: '"the group is moving"' });
  });

  it('refuses a wrong key, and bad messages in the protocol’s words', async () => {
    const { url } = await startServer();
    const ok = { from: { id: 'alice' }, to: { type: 'private', id: 'bob' }, ...text('hi') };
    expect(await post(url, ok, OPEN_APP, SECURE_APP.secretKey)).toEqual({
      status: 401,
      body: { code: 401, content: MESSAGES.noPermission },
    });
    const refused = async (body: unknown) => {
      const answer = await post(url, body);
      expect(answer.status).toBe(400);
      return answer.body.content;
    };
    expect(await refused({ ...ok, to: { type: 'private', id: 'alice' } })).toBe(MESSAGES.toSelf);
    expect(await refused({ ...ok, payload: { text: '  ' } })).toBe(MESSAGES.textEmpty);
    expect(await refused({ ...ok, payload: { text: 'x'.repeat(2501) } })).toBe(MESSAGES.textTooLong);
    expect(await refused({ ...ok, type: '' })).toBe(MESSAGES.typeEmpty);
    expect(await refused({ ...ok, payload: '' })).toBe(MESSAGES.payloadEmpty);
    expect(await refused({ ...ok, to: { type: 'cs', id: 'team' } })).toBe(MESSAGES.sceneNotSupported);
    expect(await refused({ ...ok, from: { id: 'a'.repeat(61) } })).toBe(MESSAGES.idTooLong);
    expect(await refused({ ...ok, from: { id: 'alice', data: { bio: 'x'.repeat(300) } } })).toBe(MESSAGES.dataTooLong);
    expect(await refused({ ...ok, messageId: 'has space' })).toBe('messageId must be 1 to 64 letters, digits, _ or -');
  });

  it('IM-31: the app’s server adds and removes group members, without their tokens, and lists them', async () => {
    const { url } = await startServer({ apps: [TOKEN_APP, OPEN_APP] });
    const bob = await login(url, 'bob', { appkey: TOKEN_APP.appkey });
    const members = async () => {
      const res = await fetch(`${url}/api/v1/apps/${TOKEN_APP.appkey}/groups/g1/members`, {
        headers: { authorization: `Bearer ${TOKEN_APP.secretKey}` },
      });
      return await res.json();
    };
    const member = async (method: 'PUT' | 'DELETE', userId: string, key = TOKEN_APP.secretKey) => {
      const res = await fetch(`${url}/api/v1/apps/${TOKEN_APP.appkey}/groups/g1/members/${userId}`, {
        method,
        headers: { authorization: `Bearer ${key}` },
      });
      return { status: res.status, body: await res.json() };
    };
    expect(await member('PUT', 'bob')).toEqual({ status: 200, body: { code: 200, content: null } });
    expect(await member('PUT', 'bob')).toEqual({ status: 200, body: { code: 200, content: null } });
    expect(await members()).toEqual({ code: 200, content: { members: ['bob'] } });
    // A member now: the group's messages reach bob, and bob may send to it without a token.
    const push = next(bob, 'imMessage');
    const group = { to: { type: 'group', id: 'g1' }, ...text('welcome') };
    expect((await post(url, { from: { id: 'admin' }, ...group }, TOKEN_APP)).status).toBe(200);
    expect(await push).toMatchObject({ r: 'g1', s: 'admin' });
    expect(await request(bob, 'publishIM', publishParams('g1', { t: 'group' }))).toMatchObject({ code: 200 });
    // Removed: no more.
    expect(await member('DELETE', 'bob')).toEqual({ status: 200, body: { code: 200, content: null } });
    expect(await members()).toEqual({ code: 200, content: { members: [] } });
    const got = collect(bob, 'imMessage');
    expect((await post(url, { from: { id: 'admin' }, ...group }, TOKEN_APP)).status).toBe(200);
    await settled(bob);
    expect(got).toEqual([]);
    expect(await member('PUT', 'bob', OPEN_APP.secretKey)).toEqual({
      status: 401,
      body: { code: 401, content: MESSAGES.noPermission },
    });
    expect(await member('PUT', 'b'.repeat(61))).toEqual({
      status: 400,
      body: { code: 400, content: MESSAGES.idTooLong },
    });
  });
});
