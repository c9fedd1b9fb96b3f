import { describe, expect, it } from 'vitest';
import { type ProductServer, operator, productServer, signIn, uploadImage, uploadVideo } from './product-support.js';

const ids = async (p: ProductServer, path: string, body: Record<string, unknown> = {}) =>
  ((await p.call(path, body)).ret as Array<{ id: string }>).map((card) => card.id);

const hide = (p: ProductServer, token: string, name: string, id: string, body: Record<string, unknown> = {}) =>
  p.call(`member/yinbi/name/${name}/aid/${id}`, { token, ...body });

describe('not interested: member/yinbi/name/{name}/aid/{id} hides from the member’s feeds', () => {
  it('hides an article, a video and a circle post from the feeds, search and topics, and shows them again', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const article = (await p.call('member/article_add', { token: alice.token, title: 'Lake walks', content: 'Lake' }))
      .id as string;
    p.advance(1);
    const kept = (await p.call('member/article_add', { token: alice.token, title: 'Hill walks', content: 'Lake' }))
      .id as string;
    const vid = (
      await p.call('member/video_add', {
        token: alice.token,
        title: 'Lake video',
        content: 'Lake',
        video: await uploadVideo(p, alice.token),
        img: await uploadImage(p, alice.token),
      })
    ).vid as string;
    const topic = ((await operator(p, 'circle-topics', 'POST', '', { title: 'Lakes' })).content as { id: string }).id;
    const post = (
      await p.call('member/quanzi_add', {
        token: alice.token,
        title: 'By the lake',
        content: 'Spring at the lake',
        topic,
      })
    ).ret.id as string;

    expect(await hide(p, bob.token, 'article', article)).toEqual({ status: 200, ret: { hidden: true } });
    expect(await hide(p, bob.token, 'video', vid)).toEqual({ status: 200, ret: { hidden: true } });
    expect(await hide(p, bob.token, 'quanzi', post)).toEqual({ status: 200, ret: { hidden: true } });
    // Twice is once.
    expect((await hide(p, bob.token, 'article', article)).ret).toEqual({ hidden: true });

    const bobs = { token: bob.token };
    expect(await ids(p, 'article/list', bobs)).toEqual([kept]);
    expect(await ids(p, 'article/list', { ...bobs, keyword: 'walks' })).toEqual([kept]);
    expect(await ids(p, 'video/lists', bobs)).toEqual([]);
    expect(await ids(p, 'quanzi/list', bobs)).toEqual([]);
    expect(await ids(p, 'topic/list', { ...bobs, id: topic })).toEqual([]);
    expect(await ids(p, 'topic/list', { token: alice.token, id: topic })).toEqual([post]);
    // Only for Bob: Alice, visitors and Alice's own page still list them; a link still opens them.
    expect(await ids(p, 'article/list', { token: alice.token })).toEqual([kept, article]);
    expect(await ids(p, 'article/list')).toEqual([kept, article]);
    expect(await ids(p, 'article/list', { ...bobs, uid: alice.id })).toEqual([kept, article]);
    expect(await ids(p, 'quanzi/list', { ...bobs, uid: alice.id })).toEqual([post]);
    expect((await p.call('article/view', { ...bobs, id: article })).ret).toMatchObject({ id: article });

    expect(await hide(p, bob.token, 'article', article, { hide: false })).toEqual({
      status: 200,
      ret: { hidden: false },
    });
    expect(await hide(p, bob.token, 'quanzi', post, { hide: false })).toMatchObject({ ret: { hidden: false } });
    expect(await ids(p, 'article/list', bobs)).toEqual([kept, article]);
    expect(await ids(p, 'quanzi/list', bobs)).toEqual([post]);
    expect(await ids(p, 'video/lists', bobs)).toEqual([]);
  });

  it('refuses what cannot be hidden in the spec’s words', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const article = (await p.call('member/article_add', { token: alice.token, title: 'Lake walks', content: 'Lake' }))
      .id as string;
    expect(await hide(p, 'nope', 'article', article)).toMatchObject({ code: 'token_invalid' });
    for (const name of ['user', 'articles', 'product']) {
      expect(await hide(p, bob.token, name, article), name).toMatchObject({ code: 'bad_params' });
    }
    for (const value of ['yes', 1, 'false']) {
      expect(await hide(p, bob.token, 'article', article, { hide: value }), String(value)).toMatchObject({
        code: 'bad_params',
      });
    }
    expect(await hide(p, bob.token, 'article', 'nope')).toEqual({
      status: 200,
      err: 'content does not exist or was deleted by the author',
      code: 'article_missing',
    });
    expect(await hide(p, bob.token, 'quanzi', article)).toMatchObject({ code: 'post_missing' });
    // Across a block there is nothing to hide; showing again what is gone is no error.
    await p.call(`member/lahei/uid_s/${alice.id}`, { token: bob.token, block: true });
    expect(await hide(p, bob.token, 'article', article)).toMatchObject({ code: 'article_missing' });
    expect(await hide(p, bob.token, 'article', article, { hide: false })).toMatchObject({ ret: { hidden: false } });
  });
});
