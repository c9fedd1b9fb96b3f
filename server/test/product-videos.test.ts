import { describe, expect, it } from 'vitest';
import { type ProductServer, operator, productServer, signIn, uploadImage, uploadVideo } from './product-support.js';

/** A video and a cover the member uploaded. */
const media = async (p: ProductServer, token: string) => ({
  video: await uploadVideo(p, token),
  img: await uploadImage(p, token),
});
const publish = (p: ProductServer, token: string, body: Record<string, unknown>) =>
  p.call('member/video_add', { token, title: 'A day at the lake', content: 'We walked all afternoon.', ...body });
const list = async (p: ProductServer, path: string, body: Record<string, unknown> = {}) =>
  ((await p.call(path, body)).ret as Array<Record<string, unknown>>).map((card) => card['id']);

describe('product videos: member/video_add, video/lists, and the article calls on videos', () => {
  it('publishes a video that its page, video/lists and the collection show, and article/list leaves out', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const files = await media(p, alice.token);
    const published = await publish(p, alice.token, files);
    const vid = published['vid'] as string;
    // The uploaded bytes are no video ffmpeg can read: it has no resolutions (UP-22).
    const video = { url: files.video, cover: files.img, sources: [] };
    expect(published).toEqual({
      status: 200,
      vid,
      ret: {
        id: vid,
        title: 'A day at the lake',
        content: 'We walked all afternoon.',
        imgs: [],
        author: { id: alice.id, username: 'user8000', img: '' },
        channel: null,
        created_at: p.now(),
        likes: 0,
        comments: 0,
        liked: false,
        video,
        mine: true,
      },
    });
    const article = (await p.call('member/article_add', { token: alice.token, title: 'Plain words', content: 'Text' }))
      .id as string;
    expect((await p.call('article/view', { id: vid })).ret).toMatchObject({ id: vid, video, mine: false });
    expect((await p.call('article/view', { id: article })).ret).toMatchObject({ video: null });
    expect(await list(p, 'article/list')).toEqual([article]);
    expect(await list(p, 'article/list', { uid: alice.id })).toEqual([article]);
    expect(await list(p, 'video/lists')).toEqual([vid]);
    expect((await p.call('video/lists', {})).ret).toEqual([
      expect.objectContaining({ id: vid, summary: 'We walked all afternoon.', video, author: expect.anything() }),
    ]);

    // Comments, likes and collecting work on a video as on an article.
    const bob = await signIn(p, '13900139000');
    expect((await p.call('article/ping_add', { token: bob.token, id: vid, content: 'Nice' })).ret).toBeDefined();
    expect((await p.call('article/zan', { token: bob.token, id: vid, zan: true })).ret).toEqual({
      likes: 1,
      comments: 1,
      liked: true,
    });
    expect(await p.call('article/shoucang', { token: bob.token, id: vid, shoucang: true })).toMatchObject({
      ret: { collected: true },
    });
    expect((await p.call('member/record', { token: bob.token })).ret).toEqual([
      expect.objectContaining({ id: vid, video, likes: 1, comments: 1 }),
    ]);
  });

  it('checks the title, the text, the video and the cover in that order, and whose uploads they are', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const mine = await media(p, alice.token);
    const bobs = await media(p, bob.token);
    const refused = async (body: Record<string, unknown>, code: string, err: string) =>
      expect(await publish(p, alice.token, body)).toEqual({ status: 200, err, code });
    const short = 'title must not be less than 5 characters';
    await refused({ title: 'Four', content: '', video: undefined }, 'article_title_short', short);
    await refused({ title: 'x'.repeat(31) }, 'article_title_long', 'the title has at most 30 characters');
    await refused({ content: ' ', video: undefined }, 'article_content_invalid', 'content cannot be blank');
    const noVideo = 'please upload a video';
    await refused({ img: undefined }, 'video_invalid', noVideo);
    await refused({ video: bobs.video, img: mine.img }, 'video_invalid', noVideo);
    await refused({ video: mine.img, img: mine.img }, 'video_invalid', noVideo);
    await refused({ video: 'https://elsewhere.example/a.mp4', img: mine.img }, 'video_invalid', noVideo);
    await refused({ video: [mine.video], img: mine.img }, 'video_invalid', noVideo);
    const noCover = 'a video cover is required';
    await refused({ video: mine.video }, 'video_cover_missing', noCover);
    await refused({ video: mine.video, img: bobs.img }, 'video_cover_missing', noCover);
    await refused({ video: mine.video, img: mine.video }, 'video_cover_missing', noCover);
    await refused({ ...mine, typeid: 'nope' }, 'channel_missing', 'the channel does not exist');
    expect(await publish(p, 'nope', mine)).toMatchObject({ code: 'token_invalid' });
    expect(await list(p, 'video/lists')).toEqual([]);
  });

  it('counts videos with articles against the daily most', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const files = await media(p, alice.token);
    for (let i = 0; i < 19; i += 1) {
      await p.call('member/article_add', { token: alice.token, title: `Article ${i + 1}`, content: 'Text' });
    }
    expect((await publish(p, alice.token, files)).vid).toBeDefined();
    expect(await publish(p, alice.token, files)).toMatchObject({ code: 'article_limit' });
  });

  it('finds videos whose title or text holds a keyword, as article/list finds articles, and no plain article', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const files = await media(p, alice.token);
    const lake = (await publish(p, alice.token, { ...files, title: 'Lake at dawn' })).vid as string;
    p.advance(1000);
    const hills = (await publish(p, alice.token, { ...files, title: 'Hills in fog', content: 'Near the LAKE.' }))
      .vid as string;
    p.advance(1000);
    await publish(p, alice.token, { ...files, title: 'City at night', content: 'Lights.' });
    await p.call('member/article_add', { token: alice.token, title: 'Lake notes', content: 'Words only.' });
    expect(await list(p, 'video/lists', { keyword: ' lake ' })).toEqual([hills, lake]);
    expect(await list(p, 'video/lists', { keyword: 'dawn' })).toEqual([lake]);
    expect(await list(p, 'video/lists', { keyword: '%' })).toEqual([]);
    expect(await p.call('video/lists', { keyword: 'x'.repeat(21) })).toMatchObject({ code: 'bad_params' });
    expect(await p.call('video/lists', { keyword: ['lake'] })).toMatchObject({ code: 'bad_params' });
  });

  it('pages videos, by channel in both forms, hides blocked members both ways, and lets the author delete', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const added = await operator(p, 'article-channels', 'POST', '', { name: 'Travel' });
    const typeid = (added.content as { id: string }).id;
    const files = await media(p, alice.token);
    const ids: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      ids.unshift((await publish(p, alice.token, { ...files, typeid: i < 2 ? typeid : undefined })).vid as string);
      p.advance(1000);
    }
    const bobs = await publish(p, bob.token, await media(p, bob.token));
    ids.unshift(bobs.vid as string);
    const first = await list(p, 'video/lists');
    expect(first).toEqual(ids.slice(0, 20));
    expect(await list(p, 'video/lists', { before: first[19] })).toEqual(ids.slice(20));
    expect(await p.call('video/lists', { before: 'nope' })).toMatchObject({ code: 'bad_params' });
    expect(await list(p, 'video/lists', { typeid })).toEqual(ids.slice(19));
    expect(await list(p, `video/lists/in/${typeid}`)).toEqual(ids.slice(19));
    expect(await list(p, `video/lists/in/${typeid}`, { before: ids[19] })).toEqual([ids[20]]);
    expect(await p.call('video/lists/in/nope', {})).toMatchObject({ code: 'channel_missing' });

    expect((await p.call(`member/lahei/uid_s/${alice.id}`, { token: bob.token })).status).toBe(200);
    expect(await list(p, 'video/lists', { token: bob.token })).toEqual([ids[0]]);
    expect(await list(p, 'video/lists', { token: alice.token })).not.toContain(ids[0]);
    const missing = { err: 'content does not exist or was deleted by the author', code: 'article_missing' };
    expect(await p.call('article/view', { id: ids[0], token: alice.token })).toMatchObject(missing);

    expect(await p.call('member/article_del', { token: alice.token, id: ids[0] })).toMatchObject(missing);
    expect(await p.call('member/article_del', { token: bob.token, id: ids[0] })).toEqual({ status: 200, ret: true });
    expect(await list(p, 'video/lists')).toEqual(ids.slice(1, 21));
    expect(await p.call('article/view', { id: ids[0] })).toMatchObject(missing);
  });
});
