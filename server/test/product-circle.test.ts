import { describe, expect, it } from 'vitest';
import { operator, type ProductServer, productServer, signIn, uploadImage, uploadVideo } from './product-support.js';

const DAY = 86_400_000;
const post = (p: ProductServer, token: string, body: Record<string, unknown>) =>
  p.call('member/quanzi_add', { token, title: 'By the lake', content: 'Spring at the lake', ...body });
const circle = async (p: ProductServer, body: Record<string, unknown> = {}) =>
  (await p.call('quanzi/list', body)).ret as Array<Record<string, unknown>>;

describe('product circle: member/quanzi_add, quanzi/list, quanzi/view, quanzi/vote, member/quanzi_del', () => {
  it('publishes posts with images or with a vote that visitors read newest first', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const img = await uploadImage(p, alice.token);
    const withImages = await post(p, alice.token, { title: '  A lake day ', content: '  Lake\r\nday  ', imgs: [img] });
    const author = { id: alice.id, username: 'user8000', img: '' };
    const first = {
      id: withImages.id,
      title: 'A lake day',
      content: 'Lake\nday',
      imgs: [img],
      video: null,
      vote: null,
      topic: null,
      author,
      created_at: p.now(),
      likes: 0,
      comments: 0,
      liked: false,
      mine: true,
    };
    expect(withImages).toEqual({ status: 200, ret: first, id: first.id });
    p.advance(1000);
    const voting = await post(p, alice.token, {
      title: 'Hills or sea?',
      content: 'Where next?',
      vote: { options: [' Hills ', 'Sea', '山'], days: 3 },
    });
    const second = {
      id: voting.id,
      title: 'Hills or sea?',
      content: 'Where next?',
      imgs: [],
      video: null,
      vote: {
        options: [
          { text: 'Hills', count: 0 },
          { text: 'Sea', count: 0 },
          { text: '山', count: 0 },
        ],
        total: 0,
        ends_at: p.now() + 3 * DAY,
        ended: false,
        voted: null,
      },
      topic: null,
      author,
      created_at: p.now(),
      likes: 0,
      comments: 0,
      liked: false,
      mine: true,
    };
    expect(voting).toEqual({ status: 200, ret: second, id: second.id });
    expect(await circle(p)).toEqual([
      { ...second, mine: false },
      { ...first, mine: false },
    ]);
    expect(await circle(p, { token: alice.token, uid: alice.id })).toEqual([second, first]);
    expect(await circle(p, { before: second.id })).toEqual([{ ...first, mine: false }]);
    expect(await p.call('quanzi/list', { before: 'nope' })).toMatchObject({ code: 'bad_params' });
  });

  it('checks the title first, as an article’s: 5 to 30 characters on one line, in the spec words', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const refused = async (body: Record<string, unknown>, code: string, err: string) =>
      expect(await post(p, alice.token, body), JSON.stringify(body)).toEqual({ status: 200, err, code });
    const short = 'title must not be less than 5 characters';
    await refused({ title: undefined }, 'post_title_short', short);
    await refused({ title: '' }, 'post_title_short', short);
    await refused({ title: 'Four' }, 'post_title_short', short);
    await refused({ title: '  四个字啊  ' }, 'post_title_short', short);
    await refused({ title: 12345 }, 'post_title_short', short);
    await refused({ title: ['Spring walk'] }, 'post_title_short', short);
    await refused({ title: 'Bad\u0001title' }, 'post_title_short', short);
    await refused({ title: 'Two\nlines' }, 'post_title_short', short);
    await refused({ title: 'x'.repeat(31) }, 'post_title_long', 'the title has at most 30 characters');
    await refused({ title: '山'.repeat(31) }, 'post_title_long', 'the title has at most 30 characters');
    // Before the text: a post wrong in both is refused for its title.
    await refused({ title: 'Four', content: ' ' }, 'post_title_short', short);
    await refused({ title: 'x'.repeat(31), content: ' ' }, 'post_title_long', 'the title has at most 30 characters');
    expect(await circle(p)).toEqual([]);

    // 5 and 30 characters, counted as code points (an emoji is one, though two UTF-16 units), after trimming.
    for (const title of ['Five!', '  Five!  ', '春天的湖边', 'x'.repeat(30), '😀'.repeat(30)]) {
      expect(await post(p, alice.token, { title }), title).toMatchObject({ ret: { title: title.trim() } });
      p.advance(1000);
    }
    expect((await circle(p)).map((shown) => shown['title'])).toEqual([
      '😀'.repeat(30),
      'x'.repeat(30),
      '春天的湖边',
      'Five!',
      'Five!',
    ]);
  });

  it('still lists a post written before posts had titles, with the empty title', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    await p.server.store.circle.add(
      {
        id: 'old1',
        memberId: alice.id,
        title: '',
        content: 'From before titles',
        images: [],
        vote: null,
        video: null,
        topicId: null,
        createdAt: p.now(),
      },
      { since: 0, max: 20 },
    );
    p.advance(1000);
    await post(p, alice.token, {});
    expect((await circle(p)).map((shown) => [shown['title'], shown['content']])).toEqual([
      ['By the lake', 'Spring at the lake'],
      ['', 'From before titles'],
    ]);
    expect(await p.call('quanzi/view', { id: 'old1' })).toMatchObject({
      ret: { id: 'old1', title: '', content: 'From before titles' },
    });
  });

  it('checks the text, the images and the vote in the spec words, images and vote never together', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const refused = async (body: Record<string, unknown>, code: string, err: string) =>
      expect(await post(p, alice.token, body)).toEqual({ status: 200, err, code });
    const blank = 'content cannot be blank';
    await refused({ content: ' \n ' }, 'post_content_invalid', blank);
    await refused({ content: 7 }, 'post_content_invalid', blank);
    await refused({ content: 'x'.repeat(2001) }, 'post_content_invalid', blank);
    await refused({ content: 'bell\u0007' }, 'post_content_invalid', blank);
    await refused({ imgs: [await uploadImage(p, bob.token)] }, 'post_images_invalid', 'parameter error');
    await refused({ imgs: 'one' }, 'post_images_invalid', 'parameter error');
    const badVote = 'a vote has 2 to 10 different options and lasts 1, 3 or 7 days';
    await refused({ vote: { options: ['Only'], days: 1 } }, 'vote_invalid', badVote);
    await refused({ vote: { options: ['A', 'A '], days: 1 } }, 'vote_invalid', badVote);
    await refused({ vote: { options: ['A', ' '], days: 1 } }, 'vote_invalid', badVote);
    await refused({ vote: { options: ['A', 'x'.repeat(21)], days: 1 } }, 'vote_invalid', badVote);
    await refused(
      { vote: { options: Array.from({ length: 11 }, (_, i) => `O${i}`), days: 1 } },
      'vote_invalid',
      badVote,
    );
    await refused({ vote: { options: ['A', 'B'], days: 2 } }, 'vote_invalid', badVote);
    await refused({ vote: { options: ['A', 'B'] } }, 'vote_invalid', badVote);
    await refused({ vote: { options: ['A', 2], days: 1 } }, 'vote_invalid', badVote);
    await refused({ vote: ['A', 'B'] }, 'vote_invalid', badVote);
    await refused(
      { imgs: [await uploadImage(p, alice.token)], vote: { options: ['A', 'B'], days: 1 } },
      'post_media_exclusive',
      'images, video and vote are mutually exclusive: remove one before adding another',
    );
    expect(await post(p, alice.token, { vote: null })).toMatchObject({ ret: { vote: null } });
    expect(await post(p, 'nope', {})).toMatchObject({ code: 'token_invalid' });
    expect(await circle(p)).toHaveLength(1);
  });

  it("publishes a post with a video and its cover, both the member's own, never with images or a vote", async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const video = await uploadVideo(p, alice.token);
    const img = await uploadImage(p, alice.token);
    const refused = async (body: Record<string, unknown>, code: string, err: string) =>
      expect(await post(p, alice.token, body)).toEqual({ status: 200, err, code });
    const exclusive = 'images, video and vote are mutually exclusive: remove one before adding another';
    await refused({ video, img, imgs: [img] }, 'post_media_exclusive', exclusive);
    await refused({ video, img, vote: { options: ['A', 'B'], days: 1 } }, 'post_media_exclusive', exclusive);
    // The text is checked first, then the video, then its cover.
    await refused(
      { content: ' ', video: 'https://elsewhere.test/a.mp4' },
      'post_content_invalid',
      'content cannot be blank',
    );
    await refused({ video: 'https://elsewhere.test/a.mp4', img }, 'video_invalid', 'please upload a video');
    await refused({ video: await uploadVideo(p, bob.token), img }, 'video_invalid', 'please upload a video');
    await refused({ video: img, img }, 'video_invalid', 'please upload a video');
    await refused({ video }, 'video_cover_missing', 'a video cover is required');
    await refused({ video, img: video }, 'video_cover_missing', 'a video cover is required');
    await refused({ video, img: await uploadImage(p, bob.token) }, 'video_cover_missing', 'a video cover is required');
    expect(await circle(p)).toEqual([]);

    const filmed = await post(p, alice.token, { content: 'Ducks at dusk', video, img });
    expect(filmed).toMatchObject({
      ret: { content: 'Ducks at dusk', imgs: [], vote: null, video: { url: video, cover: img } },
    });
    p.advance(1000);
    // A cover without a video is no video; an empty video is none.
    expect(await post(p, alice.token, { img, video: '' })).toMatchObject({ ret: { video: null } });
    expect((await circle(p, { token: bob.token })).map((shown) => shown['video'])).toEqual([
      null,
      // A file ffmpeg cannot read as a video has no resolutions but its own.
      { url: video, cover: img, sources: [] },
    ]);
  });

  it('finds posts whose title or text holds a keyword, as article/list finds articles', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const run = await post(p, alice.token, { title: 'Morning run', content: 'Around West Lake' });
    p.advance(1000);
    const night = await post(p, bob.token, { title: 'West LAKE at night', content: 'Lights' });
    p.advance(1000);
    await post(p, alice.token, { title: 'Dinner time', content: 'Noodles' });
    const ids = async (body: Record<string, unknown>) => (await circle(p, body)).map((found) => found['id']);
    expect(await ids({ keyword: ' west lake ' })).toEqual([night.id, run.id]);
    expect(await ids({ keyword: 'lake', uid: alice.id })).toEqual([run.id]);
    expect(await ids({ keyword: '%' })).toEqual([]);
    // Across a block, as the circle itself.
    await p.call(`member/lahei/uid_s/${bob.id}`, { token: alice.token });
    expect(await ids({ keyword: 'lake', token: alice.token })).toEqual([run.id]);
    expect(await p.call('quanzi/list', { keyword: 'x'.repeat(21) })).toMatchObject({ code: 'bad_params' });
    expect(await p.call('quanzi/list', { keyword: 7 })).toMatchObject({ code: 'bad_params' });
  });

  it('publishes 20 posts a day at most, even sent at once', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const answers = await Promise.all(Array.from({ length: 22 }, (_, i) => post(p, alice.token, { content: `${i}` })));
    expect(answers.filter((a) => a['ret'] !== undefined)).toHaveLength(20);
    expect(answers.filter((a) => a['code'] === 'post_limit')).toHaveLength(2);
    p.advance(DAY);
    expect(await post(p, alice.token, {})).toMatchObject({ ret: { content: 'Spring at the lake' } });
  });

  it('counts one vote per member while the vote runs, and shows each member their own', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const carol = await signIn(p, '13700137000');
    const id = (await post(p, alice.token, { vote: { options: ['Hills', 'Sea'], days: 1 } })).id as string;
    const vote = (token: string, option: unknown, postId: unknown = id) =>
      p.call('quanzi/vote', { token, id: postId, option });
    const tries = await Promise.all([vote(bob.token, 1), vote(bob.token, 0), vote(bob.token, 1)]);
    expect(tries.filter((t) => t['ret'] !== undefined)).toHaveLength(1);
    expect(tries.filter((t) => t['code'] === 'vote_already')).toHaveLength(2);
    const voted = (tries.find((t) => t['ret'] !== undefined)?.['ret'] as { vote: { voted: number } }).vote.voted;
    expect(await vote(carol.token, 1)).toMatchObject({
      ret: { vote: { total: 2, voted: 1, ended: false }, mine: false },
    });
    const [shown] = await circle(p, { token: bob.token });
    expect(shown?.['vote']).toMatchObject({ total: 2, voted });
    expect((await circle(p))[0]?.['vote']).toMatchObject({ total: 2, voted: null });
    expect(await vote(alice.token, 0)).toMatchObject({ ret: { vote: { total: 3, voted: 0 }, mine: true } });

    const dave = await signIn(p, '13600136000');
    expect(await vote(dave.token, 2)).toMatchObject({ code: 'bad_params' });
    expect(await vote(dave.token, -1)).toMatchObject({ code: 'bad_params' });
    expect(await vote(dave.token, '0')).toMatchObject({ code: 'bad_params' });
    expect(await vote(dave.token, 0, 'nope')).toMatchObject({
      code: 'post_missing',
      err: 'content does not exist or was deleted by the author',
    });
    const plain = (await post(p, alice.token, { content: 'No vote here' })).id as string;
    expect(await vote(dave.token, 0, plain)).toMatchObject({ code: 'bad_params' });
    expect(await vote('nope', 0)).toMatchObject({ code: 'token_invalid' });

    p.advance(86_400_000);
    expect(await vote(dave.token, 0)).toEqual({ status: 200, err: 'the vote has ended', code: 'vote_ended' });
    expect((await circle(p)).find((x) => x['id'] === id)?.['vote']).toMatchObject({ ended: true, total: 3 });
  });

  it('shows one post as the lists do, with the viewer’s vote; none deleted, across a block, or not a post', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const id = (await post(p, alice.token, { vote: { options: ['Hills', 'Sea'], days: 1 } })).id as string;
    await p.call('quanzi/vote', { token: bob.token, id, option: 1 });
    const view = (body: Record<string, unknown>) => p.call('quanzi/view', body);
    const listed = (await circle(p, { token: bob.token }))[0];
    expect(await view({ token: bob.token, id })).toEqual({ status: 200, ret: listed });
    expect((await view({ token: bob.token, id })).ret.vote).toMatchObject({ total: 1, voted: 1 });
    // A visitor reads it too, without a vote of their own.
    expect((await view({ id })).ret).toMatchObject({ id, vote: { total: 1, voted: null }, mine: false });
    const missing = { status: 200, err: 'content does not exist or was deleted by the author', code: 'post_missing' };
    for (const bad of ['nope', undefined, 7, '']) expect(await view({ id: bad }), String(bad)).toEqual(missing);
    await p.call('member/lahei/uid_s/' + alice.id, { token: bob.token });
    expect(await view({ token: bob.token, id })).toEqual(missing);
    await p.call('member/quanzi_del', { token: alice.token, id });
    expect(await view({ id })).toEqual(missing);
  });

  it('hides posts across a block, deletes the author’s own, and forgets a cancelled account’s posts and votes', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const id = (await post(p, alice.token, { vote: { options: ['Hills', 'Sea'], days: 7 } })).id as string;
    expect(await p.call('quanzi/vote', { token: bob.token, id, option: 0 })).toMatchObject({ ret: {} });
    expect(await p.call('member/lahei/uid_s/' + alice.id, { token: bob.token })).toMatchObject({ ret: {} });
    expect(await circle(p, { token: bob.token })).toEqual([]);
    expect(await p.call('quanzi/vote', { token: bob.token, id, option: 1 })).toMatchObject({ code: 'post_missing' });
    expect(await circle(p)).toHaveLength(1);
    expect(await p.call('member/lahei/uid_s/' + alice.id, { token: bob.token, block: false })).toMatchObject({
      ret: {},
    });

    // Bob's vote goes with his account.
    expect(await p.call('member/out', { token: bob.token, reason: 'moving', agree: true })).toEqual({
      status: 200,
      ret: true,
    });
    expect((await circle(p))[0]?.['vote']).toMatchObject({ total: 0 });

    expect(await p.call('member/quanzi_del', { token: alice.token, id: 'nope' })).toMatchObject({
      code: 'post_missing',
    });
    expect(await p.call('member/quanzi_del', { token: alice.token, id })).toEqual({ status: 200, ret: true });
    expect(await p.call('member/quanzi_del', { token: alice.token, id })).toMatchObject({ code: 'post_missing' });
    expect(await circle(p)).toEqual([]);
  });
});

describe('product topics: the operator sets them up, topic/index and topic/list show their posts', () => {
  const topics = (p: ProductServer, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path = '', body?: unknown) =>
    operator(p, 'circle-topics', method, path, body);

  it('lets the operator add, change and remove topics, each checked', async () => {
    const p = await productServer();
    const added = await topics(p, 'POST', '', {
      title: '  Spring walks ',
      intro: ' Where to go ',
      img: 'https://x/a.png',
    });
    expect(added).toEqual({
      status: 200,
      code: 200,
      content: {
        id: expect.any(String),
        title: 'Spring walks',
        intro: 'Where to go',
        img: 'https://x/a.png',
        createdAt: p.now(),
      },
    });
    const id = (added.content as { id: string }).id;
    const refused = async (body: unknown, content: string) =>
      expect(await topics(p, 'POST', '', body)).toEqual({ status: 400, code: 400, content });
    await refused({ title: ' ' }, 'title must be 1 to 20 characters.');
    await refused({ title: 'x'.repeat(21) }, 'title must be 1 to 20 characters.');
    await refused({ intro: 'Nothing else' }, 'title must be 1 to 20 characters.');
    await refused({ title: 'Spring walks' }, 'a topic of that title exists.');
    await refused({ title: 'Food', intro: 'x'.repeat(201) }, 'intro must be at most 200 characters.');
    await refused({ title: 'Food', intro: 3 }, 'intro must be at most 200 characters.');
    await refused({ title: 'Food', img: 'javascript:alert(1)' }, 'img must be an http(s) URL or empty.');
    await refused({ title: 'Food', img: 'https://x/a b.png' }, 'img must be an http(s) URL or empty.');
    await refused('Food', 'body must be an object.');
    expect(await topics(p, 'PATCH', `/${id}`, { title: 'Walks', img: '' })).toMatchObject({
      status: 200,
      content: { id, title: 'Walks', intro: 'Where to go', img: '' },
    });
    expect(await topics(p, 'PATCH', '/nope', { title: 'X' })).toEqual({
      status: 404,
      code: 404,
      content: 'topic does not exist.',
    });
    expect(await topics(p, 'DELETE', `/${id}`)).toMatchObject({ status: 200, content: { title: 'Walks' } });
    expect(await topics(p, 'DELETE', `/${id}`)).toMatchObject({ status: 404 });
    // A removed topic's title may be used again.
    expect((await topics(p, 'POST', '', { title: 'Walks' })).status).toBe(200);
    expect((await operator(p, 'circle-topics', 'GET', '', undefined, 'wrong')).status).toBe(401);
    const twins = await Promise.all([1, 2, 3].map(() => topics(p, 'POST', '', { title: 'Twin' })));
    expect(twins.filter((a) => a.status === 200)).toHaveLength(1);
  });

  it('posts under a topic, lists the topics by their posts and a topic’s posts, and says when one was deleted', async () => {
    const p = await productServer();
    const walks = ((await topics(p, 'POST', '', { title: 'Walks' })).content as { id: string }).id;
    p.advance(1000);
    const food = ((await topics(p, 'POST', '', { title: 'Food', intro: 'Eat well' })).content as { id: string }).id;
    const alice = await signIn(p);
    expect(await post(p, alice.token, { content: 'By the lake', topic: walks })).toMatchObject({
      ret: { topic: { id: walks, title: 'Walks' } },
    });
    p.advance(1000);
    await post(p, alice.token, { content: 'Up the hill', topic: walks });
    await post(p, alice.token, { content: 'No topic', topic: '' });
    expect(await post(p, alice.token, { topic: 'nope' })).toEqual({
      status: 200,
      err: 'topic does not exist or was deleted',
      code: 'topic_missing',
    });
    expect(await p.call('topic/index', {})).toEqual({
      status: 200,
      ret: [
        { id: walks, title: 'Walks', intro: '', img: '', posts: 2 },
        { id: food, title: 'Food', intro: 'Eat well', img: '', posts: 0 },
      ],
    });
    const listed = await p.call('topic/list', { id: walks });
    expect(listed['topic']).toEqual({ id: walks, title: 'Walks', intro: '', img: '' });
    expect((listed.ret as Array<{ content: string }>).map((x) => x.content)).toEqual(['Up the hill', 'By the lake']);
    expect(await p.call('topic/list', { id: food })).toMatchObject({ ret: [] });
    expect(await p.call('topic/list', { id: 'nope' })).toMatchObject({ code: 'topic_missing' });
    expect(await p.call('topic/list', { id: walks, before: 'nope' })).toMatchObject({ code: 'bad_params' });

    await topics(p, 'DELETE', `/${walks}`);
    expect(await p.call('topic/list', { id: walks })).toMatchObject({ code: 'topic_missing' });
    expect((await circle(p)).map((x) => x['topic'])).toEqual([null, null, null]);
    expect(await post(p, alice.token, { topic: walks })).toMatchObject({ code: 'topic_missing' });
  });
});
