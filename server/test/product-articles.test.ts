import { describe, expect, it } from 'vitest';
import { type ProductServer, productServer, signIn, uploadImage } from './product-support.js';

const publish = (p: ProductServer, token: string, body: Record<string, unknown>) =>
  p.call('member/article_add', { token, title: 'A day at the lake', content: 'We walked all afternoon.', ...body });
const feed = async (p: ProductServer, body: Record<string, unknown> = {}) =>
  (await p.call('article/list', body)).ret as Array<Record<string, unknown>>;

describe('product articles: member/article_add, article/list, article/view, member/article_del', () => {
  it('publishes an article that visitors and members read in the feed and on its page', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const img = await uploadImage(p, alice.token);
    const long = '湖'.repeat(150);
    const published = await publish(p, alice.token, {
      title: '  湖边的一天  ',
      content: `\r\n${long}\r\nEnd. `,
      imgs: [img],
    });
    const article = {
      id: published.id as string,
      title: '湖边的一天',
      content: `${long}\nEnd.`,
      imgs: [img],
      author: { id: alice.id, username: 'user8000', img: '' },
      channel: null,
      created_at: p.now(),
      likes: 0,
      comments: 0,
      liked: false,
      video: null,
    };
    expect(published).toEqual({ status: 200, ret: { ...article, mine: true }, id: article.id });
    const { content, ...card } = article;
    expect(content).toHaveLength(155);
    expect(await feed(p)).toEqual([{ ...card, summary: '湖'.repeat(100) }]);
    expect(await p.call('article/view', { id: article.id })).toEqual({
      status: 200,
      ret: { ...article, collected: false, mine: false },
    });
    expect((await p.call('article/view', { id: article.id, token: alice.token })).ret).toMatchObject({ mine: true });
    // A token no longer valid reads as a visitor.
    expect((await p.call('article/view', { id: article.id, token: 'expired' })).ret).toMatchObject({ mine: false });
  });

  it('checks the title, the text and the images in the spec words', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const refused = async (body: Record<string, unknown>, code: string, err: string) =>
      expect(await publish(p, alice.token, body)).toEqual({ status: 200, err, code });
    const short = 'title must not be less than 5 characters';
    await refused({ title: 'Four' }, 'article_title_short', short);
    await refused({ title: '  四个字啊  ' }, 'article_title_short', short);
    await refused({ title: 12345 }, 'article_title_short', short);
    await refused({ title: 'Bad\u0001title' }, 'article_title_short', short);
    await refused({ title: 'x'.repeat(31) }, 'article_title_long', 'the title has at most 30 characters');
    const blank = 'content cannot be blank';
    await refused({ content: ' \n ' }, 'article_content_invalid', blank);
    await refused({ content: ['text'] }, 'article_content_invalid', blank);
    await refused({ content: 'x'.repeat(5001) }, 'article_content_invalid', blank);
    await refused({ content: 'bell\u0007' }, 'article_content_invalid', blank);
    await refused({ imgs: ['https://elsewhere.example/a.png'] }, 'article_images_invalid', 'parameter error');
    await refused({ imgs: [await uploadImage(p, bob.token)] }, 'article_images_invalid', 'parameter error');
    const mine = await uploadImage(p, alice.token);
    await refused({ imgs: [mine, mine] }, 'article_images_invalid', 'parameter error');
    await refused({ imgs: 'one' }, 'article_images_invalid', 'parameter error');
    expect(await publish(p, alice.token, { title: 'x'.repeat(30), content: 'tab\tand\nlines' })).toMatchObject({
      ret: { content: 'tab\tand\nlines' },
    });
    expect(await publish(p, 'nope', {})).toMatchObject({ code: 'token_invalid' });
    expect(await feed(p)).toHaveLength(1);
  });

  it('publishes 20 articles a day at most, even sent at once', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const answers = await Promise.all(
      Array.from({ length: 22 }, (_, i) => publish(p, alice.token, { title: `Article ${i + 1}` })),
    );
    expect(answers.filter((a) => a['ret'] !== undefined)).toHaveLength(20);
    expect(answers.filter((a) => a['code'] === 'article_limit')).toHaveLength(2);
    p.advance(86_400_000);
    expect((await publish(p, alice.token, {})).ret).toBeDefined();
  });

  it('pages the feed and one author, hides blocked members both ways, and lets the author delete', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const ids: string[] = [];
    for (let i = 0; i < 21; i += 1) {
      ids.push((await publish(p, i === 20 ? bob.token : alice.token, { title: `Article ${i + 1}` })).id as string);
      p.advance(1000);
    }
    const first = await feed(p);
    expect(first).toHaveLength(20);
    expect(first[0]?.['id']).toBe(ids[20]);
    expect(await feed(p, { before: first[19]?.['id'] })).toHaveLength(1);
    expect(await feed(p, { uid: bob.id })).toMatchObject([{ id: ids[20], author: { id: bob.id } }]);
    expect(await feed(p, { uid: Number(bob.id) })).toHaveLength(1);
    expect(await p.call('article/list', { before: 'nope' })).toMatchObject({ code: 'bad_params' });
    expect(await p.call('article/list', { uid: {} })).toMatchObject({ code: 'bad_params' });

    // Bob blocks Alice: neither sees the other's articles, in the feed or on their page.
    expect((await p.call(`member/lahei/uid_s/${alice.id}`, { token: bob.token })).status).toBe(200);
    const missing = { err: 'content does not exist or was deleted by the author', code: 'article_missing' };
    expect((await feed(p, { token: bob.token })).map((a) => a['id'])).toEqual([ids[20]]);
    expect((await feed(p, { token: alice.token })).map((a) => a['id'])).not.toContain(ids[20]);
    expect(await p.call('article/view', { id: ids[20], token: alice.token })).toMatchObject(missing);
    expect(await p.call('article/view', { id: ids[0], token: bob.token })).toMatchObject(missing);
    expect(await feed(p)).toHaveLength(20);

    expect(await p.call('member/article_del', { token: bob.token, id: ids[0] })).toMatchObject(missing);
    expect(await p.call('member/article_del', { token: alice.token, id: ids[0] })).toEqual({ status: 200, ret: true });
    expect(await p.call('article/view', { id: ids[0] })).toMatchObject(missing);
    expect(await p.call('member/article_del', { token: alice.token, id: ids[0] })).toMatchObject(missing);
    for (const id of [undefined, '', 7, 'x'.repeat(40), 'nope']) {
      expect(await p.call('article/view', { id })).toMatchObject(missing);
    }
  });

  it('collects articles into the member record, the latest collected first, without what was deleted or blocked', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const carol = await signIn(p, '13700137000');
    const first = (await publish(p, alice.token, { title: 'First article' })).id as string;
    const second = (await publish(p, bob.token, { title: 'Second article' })).id as string;
    const third = (await publish(p, bob.token, { title: 'Third article' })).id as string;
    const record = async (before?: string) =>
      (
        (await p.call('member/record', { token: carol.token, ...(before !== undefined && { before }) })).ret as Array<
          Record<string, unknown>
        >
      ).map((card) => card['id']);
    for (const id of [first, second, third]) {
      expect(await p.call('article/shoucang', { token: carol.token, id, shoucang: true })).toEqual({
        status: 200,
        ret: { collected: true },
      });
      p.advance(1000);
    }
    expect((await p.call('article/shoucang', { token: carol.token, id: first, shoucang: true })).ret).toEqual({
      collected: true,
    });
    expect(await record()).toEqual([third, second, first]);
    expect(await record(second)).toEqual([first]);
    expect((await p.call('article/view', { id: first, token: carol.token })).ret).toMatchObject({ collected: true });
    expect((await p.call('article/view', { id: first, token: bob.token })).ret).toMatchObject({ collected: false });
    expect((await p.call('article/shoucang', { token: carol.token, id: second, shoucang: false })).ret).toEqual({
      collected: false,
    });
    expect(await record()).toEqual([third, first]);
    // Deleted, or across a block: out of the record.
    await p.call('member/article_del', { token: alice.token, id: first });
    await p.call(`member/lahei/uid_s/${bob.id}`, { token: carol.token });
    expect(await record()).toEqual([]);
    expect(await p.call('article/shoucang', { token: carol.token, id: third, shoucang: true })).toMatchObject({
      code: 'article_missing',
    });
    expect(await p.call('article/shoucang', { token: alice.token, id: third, shoucang: 'yes' })).toMatchObject({
      code: 'bad_params',
    });
    expect(await p.call('member/record', { token: carol.token, before: 'nope' })).toMatchObject({ code: 'bad_params' });
    for (const path of ['member/record', 'article/shoucang']) {
      expect(await p.call(path, { token: 'nope', id: third, shoucang: true })).toMatchObject({ code: 'token_invalid' });
    }
  });

  it('finds articles whose title or text holds a keyword, in any case, wildcards as themselves', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const lake = (await publish(p, alice.token, { title: 'A day at the LAKE', content: 'Cold water' })).id;
    p.advance(1000);
    const sale = (await publish(p, alice.token, { title: 'Half price sale', content: '50% off at the lake shop' })).id;
    p.advance(1000);
    await publish(p, alice.token, { title: 'Mountains today', content: 'Snow' });
    const ids = async (keyword: unknown) =>
      ((await p.call('article/list', { keyword })).ret as Array<Record<string, unknown>>).map((a) => a['id']);
    expect(await ids(' lake ')).toEqual([sale, lake]);
    expect(await ids('% off')).toEqual([sale]);
    expect(await ids('%')).toEqual([sale]);
    expect(await ids('_')).toEqual([]);
    expect(await ids('')).toHaveLength(3);
    expect(await p.call('article/list', { keyword: 'x'.repeat(21) })).toMatchObject({ code: 'bad_params' });
    expect(await p.call('article/list', { keyword: ['lake'] })).toMatchObject({ code: 'bad_params' });
  });
});
