import { describe, expect, it } from 'vitest';
import { type ProductServer, productServer, signIn } from './product-support.js';

async function circlePost(p: ProductServer, token: string): Promise<string> {
  return (await p.call('member/quanzi_add', { token, title: 'By the lake', content: 'Spring at the lake' }))
    .id as string;
}
const comments = async (p: ProductServer, body: Record<string, unknown>) =>
  (await p.call('quanzi/ping_list', body)).ret as Array<Record<string, unknown>>;
const likers = async (p: ProductServer, body: Record<string, unknown>) =>
  (await p.call('quanzi/zan_list', body)).ret as Array<Record<string, unknown>>;
const listed = async (p: ProductServer, token?: string) =>
  ((await p.call('quanzi/list', token === undefined ? {} : { token })).ret as Array<Record<string, unknown>>)[0];

const MISSING = { err: 'content does not exist or was deleted by the author', code: 'post_missing' };

describe('product circle comments and likes: quanzi/ping_add, quanzi/ping_list, quanzi/zan', () => {
  it('comments newest first, counted on the post; the writer and the post author may delete one', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const carol = await signIn(p, '13700137000');
    const id = await circlePost(p, alice.token);
    const said = await p.call('quanzi/ping_add', { token: bob.token, id, content: '  So green!\r\nWhere? ' });
    expect(said).toEqual({
      status: 200,
      ret: {
        id: said.ret.id,
        content: 'So green!\nWhere?',
        author: { id: bob.id, username: 'user9000', img: '' },
        created_at: p.now(),
        deletable: true,
        reply_to: null,
      },
    });
    p.advance(1000);
    const carolSaid = (await p.call('quanzi/ping_add', { token: carol.token, id, content: 'Lovely' })).ret;
    expect((await comments(p, { id })).map((c) => [c['content'], c['deletable']])).toEqual([
      ['Lovely', false],
      ['So green!\nWhere?', false],
    ]);
    expect((await comments(p, { id, token: alice.token })).map((c) => c['deletable'])).toEqual([true, true]);
    expect((await comments(p, { id, token: bob.token })).map((c) => c['deletable'])).toEqual([false, true]);
    expect(await comments(p, { id, before: carolSaid.id })).toMatchObject([{ id: said.ret.id }]);
    expect(await listed(p)).toMatchObject({ id, comments: 2, likes: 0, liked: false });
    // An article's comment call knows nothing of the post, and the other way round.
    expect(await p.call('article/ping_list', { id })).toMatchObject({ code: 'article_missing' });
    expect(await p.call('member/ping_del', { token: bob.token, id: said.ret.id })).toMatchObject({
      code: 'comment_missing',
    });

    expect(await p.call('member/quanzi_ping_del', { token: bob.token, id: carolSaid.id })).toMatchObject({
      code: 'comment_missing',
    });
    expect(await p.call('member/quanzi_ping_del', { token: alice.token, id: carolSaid.id })).toEqual({
      status: 200,
      ret: true,
    });
    expect(await p.call('member/quanzi_ping_del', { token: bob.token, id: said.ret.id })).toEqual({
      status: 200,
      ret: true,
    });
    expect(await comments(p, { id })).toEqual([]);
    expect(await listed(p)).toMatchObject({ comments: 0 });
  });

  it('likes once per member, unlikes, and lists who liked, newest first; the circle shows the counts', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const id = await circlePost(p, alice.token);
    expect(await p.call('quanzi/zan', { token: bob.token, id, zan: true })).toEqual({
      status: 200,
      ret: { likes: 1, comments: 0, liked: true },
    });
    expect((await p.call('quanzi/zan', { token: bob.token, id, zan: true })).ret).toMatchObject({ likes: 1 });
    p.advance(1000);
    expect((await p.call('quanzi/zan', { token: alice.token, id, zan: true })).ret).toMatchObject({ likes: 2 });
    expect(await listed(p, bob.token)).toMatchObject({ likes: 2, liked: true });
    expect(await listed(p)).toMatchObject({ likes: 2, liked: false });
    expect(await likers(p, { id })).toEqual([
      { id: alice.id, username: 'user8000', img: '', created_at: p.now() },
      { id: bob.id, username: 'user9000', img: '', created_at: p.now() - 1000 },
    ]);
    expect(await likers(p, { id, before: alice.id })).toMatchObject([{ id: bob.id }]);
    expect(await p.call('quanzi/zan', { token: bob.token, id, zan: false })).toEqual({
      status: 200,
      ret: { likes: 1, comments: 0, liked: false },
    });
    expect(await listed(p, bob.token)).toMatchObject({ likes: 1, liked: false });
  });

  it('refuses a blank comment, a missing or deleted post, a bad page, a bad like and a missing token', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const id = await circlePost(p, alice.token);
    for (const content of ['', ' \n ', 'x'.repeat(501), 12]) {
      expect(await p.call('quanzi/ping_add', { token: alice.token, id, content })).toMatchObject({
        err: 'content cannot be blank',
        code: 'comment_invalid',
      });
    }
    for (const bad of ['nope', undefined, 7]) {
      expect(await p.call('quanzi/ping_add', { token: alice.token, id: bad, content: 'Hi' })).toMatchObject(MISSING);
      expect(await p.call('quanzi/ping_list', { id: bad })).toMatchObject(MISSING);
      expect(await p.call('quanzi/zan', { token: alice.token, id: bad, zan: true })).toMatchObject(MISSING);
      expect(await p.call('quanzi/zan_list', { id: bad })).toMatchObject(MISSING);
    }
    expect(await p.call('quanzi/ping_list', { id, before: 'nope' })).toMatchObject({ code: 'bad_params' });
    expect(await p.call('quanzi/zan_list', { id, before: 'nope' })).toMatchObject({ code: 'bad_params' });
    expect(await p.call('quanzi/zan', { token: alice.token, id, zan: 1 })).toMatchObject({ code: 'bad_params' });
    for (const path of ['quanzi/ping_add', 'member/quanzi_ping_del', 'quanzi/zan']) {
      expect(await p.call(path, { token: 'nope', id, content: 'Hi', zan: true })).toMatchObject({
        code: 'token_invalid',
      });
    }
    await p.call('member/quanzi_del', { token: alice.token, id });
    expect(await p.call('quanzi/ping_list', { id })).toMatchObject(MISSING);
    expect(await p.call('quanzi/zan', { token: alice.token, id, zan: true })).toMatchObject(MISSING);
  });

  it('keeps blocked members apart, and a cancelled member’s comments and likes go with the account', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const carol = await signIn(p, '13700137000');
    const id = await circlePost(p, alice.token);
    await p.call('quanzi/ping_add', { token: carol.token, id, content: 'From Carol' });
    await p.call('quanzi/zan', { token: carol.token, id, zan: true });
    await p.call(`member/lahei/uid_s/${carol.id}`, { token: bob.token });
    expect(await comments(p, { id, token: bob.token })).toEqual([]);
    expect(await likers(p, { id, token: bob.token })).toEqual([]);
    expect(await comments(p, { id })).toHaveLength(1);
    await p.call(`member/lahei/uid_s/${bob.id}`, { token: alice.token });
    expect(await p.call('quanzi/ping_add', { token: bob.token, id, content: 'Hi' })).toMatchObject(MISSING);
    expect(await p.call('quanzi/zan', { token: bob.token, id, zan: true })).toMatchObject(MISSING);
    await p.call('member/out', { token: carol.token, reason: 'moving', agree: true });
    expect(await comments(p, { id })).toEqual([]);
    expect(await listed(p)).toMatchObject({ likes: 0, comments: 0 });
  });

  it('answers a comment: shown to @its writer, who hears of it, as the author does; never across a block', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const carol = await signIn(p, '13700137000');
    const id = await circlePost(p, alice.token);
    const bobs = (await p.call('quanzi/ping_add', { token: bob.token, id, content: 'Where is this?' })).ret;
    p.advance(1000);
    const answer = await p.call('quanzi/ping_add', {
      token: carol.token,
      id,
      content: 'The lake by the hills',
      reply_to: bobs.id,
    });
    const bobShown = { id: bob.id, username: 'user9000', img: '' };
    expect(answer.ret).toMatchObject({ content: 'The lake by the hills', reply_to: { id: bobs.id, author: bobShown } });
    expect((await comments(p, { id })).map((c) => c['reply_to'])).toEqual([{ id: bobs.id, author: bobShown }, null]);
    // Bob hears of the answer to him, Alice of the comment on her post.
    const notices = async (token: string) =>
      ((await p.call('member/notify_list', { token })).ret as Array<{ data: Record<string, unknown> }>).map(
        (n) => n.data,
      );
    expect(await notices(bob.token)).toEqual([
      expect.objectContaining({ reply: true, content: 'The lake by the hills' }),
    ]);
    expect((await notices(alice.token))[0]).not.toHaveProperty('reply');
    // Answering what is not a comment on this post, or one deleted, is comment_missing.
    const other = await circlePost(p, alice.token);
    const missing = { code: 'comment_missing' };
    for (const reply_to of ['nope', 7, bobs.id]) {
      const target = reply_to === bobs.id ? other : id;
      expect(await p.call('quanzi/ping_add', { token: carol.token, id: target, content: 'x', reply_to })).toMatchObject(
        missing,
      );
    }
    // A deleted answer takes back Bob's notification; across a block there is nothing to answer.
    await p.call('member/quanzi_ping_del', { token: carol.token, id: answer.ret.id });
    expect(await notices(bob.token)).toEqual([]);
    await p.call(`member/lahei/uid_s/${bob.id}`, { token: carol.token });
    expect(await p.call('quanzi/ping_add', { token: carol.token, id, content: 'x', reply_to: bobs.id })).toMatchObject(
      missing,
    );
    await p.call('member/quanzi_ping_del', { token: bob.token, id: bobs.id });
    expect(await p.call('quanzi/ping_add', { token: alice.token, id, content: 'x', reply_to: bobs.id })).toMatchObject(
      missing,
    );
  });
});
