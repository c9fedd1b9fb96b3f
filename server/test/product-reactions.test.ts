import { describe, expect, it } from 'vitest';
import { type ProductServer, productServer, signIn } from './product-support.js';

async function article(p: ProductServer, token: string, title = 'A day at the lake'): Promise<string> {
  const answer = await p.call('member/article_add', { token, title, content: 'We walked all afternoon.' });
  return answer.id as string;
}
const comments = async (p: ProductServer, body: Record<string, unknown>) =>
  (await p.call('article/ping_list', body)).ret as Array<Record<string, unknown>>;
const likers = async (p: ProductServer, body: Record<string, unknown>) =>
  (await p.call('article/zan_list', body)).ret as Array<Record<string, unknown>>;
const view = async (p: ProductServer, id: string, token?: string) =>
  (await p.call('article/view', { id, ...(token !== undefined && { token }) })).ret as Record<string, unknown>;

const MISSING = { err: 'content does not exist or was deleted by the author', code: 'article_missing' };

describe('the likes a member received (spec §3 profile "fans, likes")', () => {
  it('counts likes on their articles and circle posts in member/info and member/profile', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const carol = await signIn(p, '13700137000');
    const first = await article(p, alice.token);
    const second = await article(p, alice.token, 'Another lake day');
    const post = await p.call('member/quanzi_add', { token: alice.token, title: 'By the lake', content: 'Calm.' });
    for (const [token, id] of [
      [bob.token, first],
      [carol.token, first],
      [bob.token, second],
    ] as const) {
      expect((await p.call('article/zan', { token, id, zan: true })).ret).toMatchObject({ liked: true });
    }
    expect((await p.call('quanzi/zan', { token: carol.token, id: post['id'], zan: true })).ret).toMatchObject({
      liked: true,
    });
    expect((await p.call('member/info', { token: alice.token })).ret).toMatchObject({ likes: 4 });
    expect((await p.call('member/profile', { token: bob.token, id: alice.id })).ret).toMatchObject({ likes: 4 });
    expect((await p.call('member/info', { token: bob.token })).ret).toMatchObject({ likes: 0 });
    // Taken back: counted no more.
    await p.call('article/zan', { token: bob.token, id: second, zan: false });
    expect((await p.call('member/profile', { token: carol.token, id: alice.id })).ret).toMatchObject({ likes: 3 });
  });
});

describe('product article comments and likes: article/ping, article/zan', () => {
  it('comments newest first, counted on the article; the writer and the article author may delete one', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const carol = await signIn(p, '13700137000');
    const id = await article(p, alice.token);
    const said = await p.call('article/ping_add', { token: bob.token, id, content: '  Lovely!\r\nWish I was there. ' });
    expect(said).toEqual({
      status: 200,
      ret: {
        id: said.ret.id,
        content: 'Lovely!\nWish I was there.',
        author: { id: bob.id, username: 'user9000', img: '' },
        created_at: p.now(),
        deletable: true,
        reply_to: null,
      },
    });
    p.advance(1000);
    const carolSaid = (await p.call('article/ping_add', { token: carol.token, id, content: 'Where is it?' })).ret;
    // Newest first; a visitor may delete nothing, the article's author anything, a writer their own.
    expect((await comments(p, { id })).map((c) => [c['content'], c['deletable']])).toEqual([
      ['Where is it?', false],
      ['Lovely!\nWish I was there.', false],
    ]);
    expect((await comments(p, { id, token: alice.token })).map((c) => c['deletable'])).toEqual([true, true]);
    expect((await comments(p, { id, token: bob.token })).map((c) => c['deletable'])).toEqual([false, true]);
    expect(await view(p, id)).toMatchObject({ comments: 2, likes: 0, liked: false });
    expect((await p.call('article/list', {})).ret).toMatchObject([{ id, comments: 2 }]);

    expect(await p.call('member/ping_del', { token: bob.token, id: carolSaid.id })).toMatchObject({
      code: 'comment_missing',
    });
    expect(await p.call('member/ping_del', { token: alice.token, id: carolSaid.id })).toEqual({
      status: 200,
      ret: true,
    });
    expect(await p.call('member/ping_del', { token: bob.token, id: said.ret.id })).toEqual({ status: 200, ret: true });
    expect(await p.call('member/ping_del', { token: bob.token, id: said.ret.id })).toMatchObject({
      code: 'comment_missing',
    });
    expect(await comments(p, { id })).toEqual([]);
    expect(await view(p, id)).toMatchObject({ comments: 0 });
  });

  it('refuses a blank or long comment, a missing article, a bad page and a missing token', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const id = await article(p, alice.token);
    const blank = { err: 'content cannot be blank', code: 'comment_invalid' };
    for (const content of ['', '  \n ', 'x'.repeat(501), 12, 'bell\u0007']) {
      expect(await p.call('article/ping_add', { token: alice.token, id, content })).toMatchObject(blank);
    }
    expect((await p.call('article/ping_add', { token: alice.token, id, content: 'x'.repeat(500) })).ret).toBeDefined();
    for (const bad of ['nope', undefined, 7]) {
      expect(await p.call('article/ping_add', { token: alice.token, id: bad, content: 'Hi' })).toMatchObject(MISSING);
      expect(await p.call('article/ping_list', { id: bad })).toMatchObject(MISSING);
      expect(await p.call('article/zan', { token: alice.token, id: bad, zan: true })).toMatchObject(MISSING);
      expect(await p.call('article/zan_list', { id: bad })).toMatchObject(MISSING);
    }
    expect(await p.call('article/ping_list', { id, before: 'nope' })).toMatchObject({ code: 'bad_params' });
    expect(await p.call('article/zan_list', { id, before: 'nope' })).toMatchObject({ code: 'bad_params' });
    expect(await p.call('article/zan', { token: alice.token, id, zan: 'yes' })).toMatchObject({ code: 'bad_params' });
    for (const path of ['article/ping_add', 'member/ping_del', 'article/zan']) {
      expect(await p.call(path, { token: 'nope', id, content: 'Hi', zan: true })).toMatchObject({
        code: 'token_invalid',
      });
    }
    // A deleted article takes its comments out of reach.
    await p.call('member/article_del', { token: alice.token, id });
    expect(await p.call('article/ping_list', { id })).toMatchObject(MISSING);
  });

  it('writes 200 comments a day at most, even sent at once', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const id = await article(p, alice.token);
    const answers = await Promise.all(
      Array.from({ length: 205 }, (_, i) => p.call('article/ping_add', { token: alice.token, id, content: `#${i}` })),
    );
    expect(answers.filter((a) => a['ret'] !== undefined)).toHaveLength(200);
    expect(answers.filter((a) => a['code'] === 'too_frequent')).toHaveLength(5);
  });

  it('likes once per member, unlikes, and lists who liked, newest first', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const id = await article(p, alice.token);
    expect(await p.call('article/zan', { token: bob.token, id, zan: true })).toEqual({
      status: 200,
      ret: { likes: 1, comments: 0, liked: true },
    });
    expect((await p.call('article/zan', { token: bob.token, id, zan: true })).ret).toMatchObject({ likes: 1 });
    p.advance(1000);
    expect((await p.call('article/zan', { token: alice.token, id, zan: true })).ret).toMatchObject({ likes: 2 });
    expect(await view(p, id, bob.token)).toMatchObject({ likes: 2, liked: true });
    expect(await view(p, id)).toMatchObject({ likes: 2, liked: false });
    expect((await p.call('article/list', { token: bob.token })).ret).toMatchObject([{ likes: 2, liked: true }]);
    const who = await likers(p, { id });
    expect(who).toEqual([
      { id: alice.id, username: 'user8000', img: '', created_at: p.now() },
      { id: bob.id, username: 'user9000', img: '', created_at: p.now() - 1000 },
    ]);
    expect(await likers(p, { id, before: alice.id })).toMatchObject([{ id: bob.id }]);
    expect(await p.call('article/zan', { token: bob.token, id, zan: false })).toEqual({
      status: 200,
      ret: { likes: 1, comments: 0, liked: false },
    });
    expect((await p.call('article/zan', { token: bob.token, id, zan: false })).ret).toMatchObject({ likes: 1 });
  });

  it('keeps blocked members apart: no comments or likes across a block, and none shown', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const carol = await signIn(p, '13700137000');
    const id = await article(p, alice.token);
    await p.call('article/ping_add', { token: carol.token, id, content: 'From Carol' });
    await p.call('article/zan', { token: carol.token, id, zan: true });
    // Bob blocks Carol: he sees neither her comment nor her like on Alice's article.
    await p.call(`member/lahei/uid_s/${carol.id}`, { token: bob.token });
    expect(await comments(p, { id, token: bob.token })).toEqual([]);
    expect(await likers(p, { id, token: bob.token })).toEqual([]);
    expect(await comments(p, { id })).toHaveLength(1);
    // Alice blocks Bob: he can neither comment on nor like her article.
    await p.call(`member/lahei/uid_s/${bob.id}`, { token: alice.token });
    expect(await p.call('article/ping_add', { token: bob.token, id, content: 'Hi' })).toMatchObject(MISSING);
    expect(await p.call('article/zan', { token: bob.token, id, zan: true })).toMatchObject(MISSING);
    // A cancelled member's comments and likes go with the account.
    await p.call('member/out', { token: carol.token, reason: 'moving', agree: true });
    expect(await comments(p, { id })).toEqual([]);
    expect(await view(p, id)).toMatchObject({ likes: 0, comments: 0 });
  });
});
