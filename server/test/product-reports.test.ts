import { describe, expect, it } from 'vitest';
import {
  operator,
  PHONE,
  type ProductServer,
  productServer,
  signIn,
  untitledPost,
  uploadImage,
} from './product-support.js';

async function article(p: ProductServer, token: string): Promise<string> {
  const answer = await p.call('member/article_add', { token, title: 'Buy cheap watches', content: 'Click here.' });
  return answer.id as string;
}
const report = (p: ProductServer, token: string, id: string, content: unknown = 'Spam: an advert', type = 'article') =>
  p.call(`member/jubao_add/type/${type}/aid/${id}`, { token, content });
/** A row an answer carries, by its id. */
type Row = { id: string; title: string };
const reviews = (p: ProductServer, method: 'GET' | 'POST', path: string, body?: unknown, secret?: string) =>
  operator(p, 'reports', method, path, body, secret);

describe('product reports: member/jubao_add, jubao_list, jubao_view and the operator queue', () => {
  it('reports an article once while under review; upholding removes it and closes every report of it', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const carol = await signIn(p, '13700137000');
    const id = await article(p, alice.token);
    const sent = await report(p, bob.token, id, '  Spam:\r\nan advert ');
    const pending = {
      id: sent.ret.id,
      type: 'article',
      target_id: id,
      title: 'Buy cheap watches',
      content: 'Spam:\nan advert',
      status: 'pending',
      reason: '',
      created_at: p.now(),
      reviewed_at: null,
    };
    expect(sent).toEqual({ status: 200, ret: pending });
    expect(await report(p, bob.token, id)).toMatchObject({
      err: 'you reported this already; it is under review',
      code: 'report_pending',
    });
    // The form of the reference app: user_content.
    p.advance(1000);
    const carols = await p.call(`member/jubao_add/type/article/aid/${id}`, {
      token: carol.token,
      user_content: 'Scam',
    });
    expect(carols.ret).toMatchObject({ status: 'pending', content: 'Scam' });
    expect((await p.call('member/jubao_list', { token: bob.token })).ret).toEqual([pending]);
    expect((await p.call('member/jubao_view', { token: bob.token, id: pending.id })).ret).toEqual(pending);
    expect(await p.call('member/jubao_view', { token: carol.token, id: pending.id })).toMatchObject({
      code: 'report_missing',
    });

    const queue = await reviews(p, 'GET', '');
    expect(queue.content).toMatchObject([
      { id: pending.id, memberId: bob.id, targetId: id, title: 'Buy cheap watches', status: 'pending' },
      { id: carols.ret.id, memberId: carol.id },
    ]);
    expect(await reviews(p, 'POST', `/${pending.id}/review`, { uphold: true })).toEqual({
      status: 400,
      code: 400,
      content: 'reason is required: 1 to 100 characters.',
    });
    p.advance(1000);
    expect(await reviews(p, 'POST', `/${pending.id}/review`, { uphold: true, reason: 'Advertising' })).toMatchObject({
      status: 200,
      content: { status: 'upheld', reason: 'Advertising', reviewedAt: p.now() },
    });
    expect(await p.call('article/view', { id })).toMatchObject({ code: 'article_missing' });
    expect((await reviews(p, 'GET', '')).content).toEqual([]);
    expect((await reviews(p, 'GET', '?status=upheld')).content).toHaveLength(2);
    expect(await reviews(p, 'POST', `/${carols.ret.id}/review`, { uphold: false, reason: 'x' })).toEqual({
      status: 404,
      code: 404,
      content: 'no such report under review',
    });
    for (const who of [bob, carol]) {
      const notices = (await p.call('member/notify_list', { token: who.token })).ret as unknown[];
      expect(notices).toMatchObject([
        { kind: 'report', data: { status: 'upheld', reason: 'Advertising', title: 'Buy cheap watches' } },
      ]);
    }
    // Its author hears which article went and why, once though two reports closed.
    expect((await p.call('member/notify_list', { token: alice.token })).ret).toEqual([
      {
        id: expect.any(String),
        kind: 'content_removed',
        actor: null,
        data: { type: 'article', title: 'Buy cheap watches', reason: 'Advertising' },
        created_at: p.now(),
        read: false,
      },
    ]);
    // The report reads after the article is gone.
    expect((await p.call('member/jubao_view', { token: bob.token, id: pending.id })).ret).toMatchObject({
      title: 'Buy cheap watches',
      status: 'upheld',
    });
  });

  it('dismisses one report with a reason, leaving the article; the member may report it again', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const id = await article(p, alice.token);
    const first = (await report(p, bob.token, id)).ret as { id: string };
    expect(await reviews(p, 'POST', `/${first.id}/review`, { uphold: false, reason: 'Not an advert' })).toMatchObject({
      content: { status: 'dismissed', reason: 'Not an advert' },
    });
    expect((await p.call('article/view', { id })).ret).toMatchObject({ id });
    // Its author never hears of a report that came to nothing.
    expect((await p.call('member/notify_list', { token: alice.token })).ret).toEqual([]);
    expect((await report(p, bob.token, id)).ret).toMatchObject({ status: 'pending' });
    expect((await reviews(p, 'GET', '?status=dismissed')).content).toMatchObject([{ id: first.id }]);
  });

  it('reports a circle post, titled with its title; upholding deletes the post', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const content = 'Cheap watches,\nbest prices in town: message me today for the list';
    const title = 'Cheap watches for sale';
    const id = (await p.call('member/quanzi_add', { token: alice.token, title, content })).id as string;
    const sent = await report(p, bob.token, id, 'Spam', 'quanzi');
    expect(sent.ret).toMatchObject({ type: 'quanzi', target_id: id, title, content: 'Spam', status: 'pending' });
    expect(await report(p, bob.token, id, 'Spam', 'quanzi')).toMatchObject({ code: 'report_pending' });
    // An article is another content, though the id is the post's.
    expect(await report(p, bob.token, id)).toMatchObject({ code: 'article_missing' });
    expect(await reviews(p, 'POST', `/${sent.ret.id}/review`, { uphold: true, reason: 'Advertising' })).toMatchObject({
      status: 200,
      content: { type: 'quanzi', status: 'upheld' },
    });
    expect((await p.call('quanzi/list', {})).ret).toEqual([]);
    expect(await p.call('quanzi/zan', { token: bob.token, id, zan: true })).toMatchObject({ code: 'post_missing' });
    expect(await report(p, bob.token, id, 'Spam', 'quanzi')).toMatchObject({ code: 'post_missing' });
    const notices = (await p.call('member/notify_list', { token: bob.token })).ret as unknown[];
    expect(notices).toMatchObject([{ kind: 'report', data: { status: 'upheld', title: 'Cheap watches for sale' } }]);
    expect((await p.call('member/notify_list', { token: alice.token })).ret).toMatchObject([
      { kind: 'content_removed', actor: null, data: { type: 'quanzi', title, reason: 'Advertising' } },
    ]);
  });

  it.each([
    ['article', 'ping'],
    ['quanzi', 'quanzi_ping'],
  ] as const)(
    '%s comments are reported as %s, titled with their start; upholding deletes one and its notifications',
    async (on, type) => {
      const p = await productServer();
      const alice = await signIn(p);
      const bob = await signIn(p, '13900139000');
      const carol = await signIn(p, '13700137000');
      const subjectId =
        on === 'article'
          ? await article(p, alice.token)
          : ((await p.call('member/quanzi_add', { token: alice.token, title: 'Say hello', content: 'Hello' }))
              .id as string);
      const text = 'You are all idiots,\nand everyone here knows it very well';
      const comment = (await p.call(`${on}/ping_add`, { token: carol.token, id: subjectId, content: text })).ret as Row;
      const kept = (await p.call(`${on}/ping_add`, { token: alice.token, id: subjectId, content: 'Thanks all' }))
        .ret as Row;
      // Alice heard of the comment, its words in her notification.
      const heard = async () =>
        ((await p.call('member/notify_list', { token: alice.token })).ret as { kind: string }[]).filter(
          (notice) => notice.kind === 'comment',
        );
      expect(await heard()).toMatchObject([{ data: { comment: comment.id } }]);
      const sent = await report(p, bob.token, comment.id, 'Abuse', type);
      expect(sent.ret).toMatchObject({
        type,
        target_id: comment.id,
        title: 'You are all idiots, and every…',
        content: 'Abuse',
        status: 'pending',
      });
      expect(await report(p, bob.token, comment.id, 'Abuse', type)).toMatchObject({ code: 'report_pending' });
      // A comment is its own content: not the article or the post, nor a comment of the other kind.
      const other = type === 'ping' ? 'quanzi_ping' : 'ping';
      expect(await report(p, bob.token, comment.id, 'Abuse', other)).toMatchObject({ code: 'comment_missing' });
      expect(await reviews(p, 'POST', `/${sent.ret.id}/review`, { uphold: true, reason: 'Abusive' })).toMatchObject({
        status: 200,
        content: { type, targetId: comment.id, status: 'upheld' },
      });
      // The comment is gone; the subject and the other comment stay.
      const left = (await p.call(`${on}/ping_list`, { id: subjectId })).ret as { id: string }[];
      // Taken down as its writer's deletion would: the notification that held its words goes with it.
      expect(await heard()).toEqual([]);
      expect(left.map((c) => c.id)).toEqual([kept.id]);
      expect(await report(p, bob.token, comment.id, 'Abuse', type)).toMatchObject({ code: 'comment_missing' });
      const notices = (await p.call('member/notify_list', { token: bob.token })).ret as unknown[];
      expect(notices).toMatchObject([{ kind: 'report', data: { status: 'upheld', title: sent.ret.title } }]);
      // The comment's writer hears which comment went and why; the subject's author, nothing more.
      expect((await p.call('member/notify_list', { token: carol.token })).ret).toMatchObject([
        { kind: 'content_removed', data: { type, title: sent.ret.title, reason: 'Abusive' } },
      ]);
      const alices = (await p.call('member/notify_list', { token: alice.token })).ret as { kind: string }[];
      expect(alices.filter((notice) => notice.kind === 'content_removed')).toEqual([]);
    },
  );

  it('tells no one of content its author deleted while it was under review', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const id = await article(p, alice.token);
    const sent = (await report(p, bob.token, id)).ret as { id: string };
    expect(await p.call('member/article_del', { token: alice.token, id })).toMatchObject({ status: 200 });
    expect(await reviews(p, 'POST', `/${sent.id}/review`, { uphold: true, reason: 'Advertising' })).toMatchObject({
      status: 200,
      content: { status: 'upheld' },
    });
    expect((await p.call('member/notify_list', { token: alice.token })).ret).toEqual([]);
    expect((await p.call('member/notify_list', { token: bob.token })).ret).toMatchObject([
      { kind: 'report', data: { status: 'upheld' } },
    ]);
  });

  it('refuses to report a comment that is not there, on what the member cannot see, or across a block', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const carol = await signIn(p, '13700137000');
    const id = await article(p, alice.token);
    const comment = (await p.call('article/ping_add', { token: carol.token, id, content: 'Rude words' })).ret as Row;
    for (const bad of ['nope', '', 'x'.repeat(80)]) {
      expect(await report(p, bob.token, bad, 'Abuse', 'ping')).toMatchObject({ code: 'comment_missing' });
    }
    // Its writer blocked the reporter: nothing to see.
    await p.call(`member/lahei/uid_s/${bob.id}`, { token: carol.token });
    expect(await report(p, bob.token, comment.id, 'Abuse', 'ping')).toMatchObject({ code: 'comment_missing' });
    await p.call(`member/lahei/uid_s/${bob.id}`, { token: carol.token, block: false });
    expect((await report(p, bob.token, comment.id, 'Abuse', 'ping')).ret).toMatchObject({ status: 'pending' });
    // The article's author blocked another reporter: the comments under it are out of sight too.
    const dave = await signIn(p, '13600136000');
    await p.call(`member/lahei/uid_s/${dave.id}`, { token: alice.token });
    expect(await report(p, dave.token, comment.id, 'Abuse', 'ping')).toMatchObject({ code: 'comment_missing' });
    // A comment deleted by its writer cannot be reported.
    const gone = (await p.call('article/ping_add', { token: carol.token, id, content: 'Oops' })).ret as Row;
    await p.call('member/ping_del', { token: carol.token, id: gone.id });
    expect(await report(p, bob.token, gone.id, 'Abuse', 'ping')).toMatchObject({ code: 'comment_missing' });
  });

  it('reports a member for their profile; upholding resets it, tells them why, and lets them rename at once', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const carol = await signIn(p, '13700137000');
    const [avatar, background] = [await uploadImage(p, alice.token), await uploadImage(p, alice.token)];
    const profile = { username: 'Cheap Watches', img: avatar, background, qianming: 'Buy now', region: 'Shanghai' };
    expect((await p.call('member/profile_update', { token: alice.token, ...profile })).ret).toMatchObject(profile);
    const sent = await report(p, bob.token, alice.id, 'Spam: an advert for a name', 'user');
    expect(sent).toEqual({
      status: 200,
      ret: {
        id: sent.ret.id,
        type: 'user',
        target_id: alice.id,
        title: 'Cheap Watches',
        content: 'Spam: an advert for a name',
        status: 'pending',
        reason: '',
        created_at: p.now(),
        reviewed_at: null,
      },
    });
    expect(await report(p, bob.token, alice.id, 'Spam', 'user')).toMatchObject({ code: 'report_pending' });
    // Across a block too: one blocks and reports together.
    await p.call(`member/lahei/uid_s/${alice.id}`, { token: carol.token });
    const carols = (await report(p, carol.token, alice.id, 'Abuse', 'user')).ret as Row;
    expect(carols).toMatchObject({ type: 'user', title: 'Cheap Watches' });
    // Dismissing one changes nothing.
    expect((await reviews(p, 'POST', `/${carols.id}/review`, { uphold: false, reason: 'Not abuse' })).status).toBe(200);
    expect((await p.call('member/profile', { token: bob.token, id: alice.id })).ret).toMatchObject(profile);
    const again = (await report(p, carol.token, alice.id, 'Spam', 'user')).ret as Row;

    p.advance(1000);
    expect(await reviews(p, 'POST', `/${sent.ret.id}/review`, { uphold: true, reason: 'Advertising' })).toMatchObject({
      status: 200,
      content: { status: 'upheld', reason: 'Advertising', reviewedAt: p.now() },
    });
    const reset = { username: `user${PHONE.slice(-4)}`, img: '', background: '', qianming: '', region: 'Shanghai' };
    expect((await p.call('member/profile', { token: bob.token, id: alice.id })).ret).toMatchObject(reset);
    expect((await p.call('member/info', { token: alice.token })).ret).toMatchObject(reset);
    // Every report of her under review closed with the same decision; the dismissed one stays as it was.
    expect((await p.call('member/jubao_view', { token: carol.token, id: again.id })).ret).toMatchObject({
      status: 'upheld',
      reason: 'Advertising',
    });
    expect((await p.call('member/jubao_view', { token: carol.token, id: carols.id })).ret).toMatchObject({
      status: 'dismissed',
    });
    const told = (await p.call('member/notify_list', { token: bob.token })).ret as unknown[];
    expect(told).toMatchObject([
      { kind: 'report', data: { report: sent.ret.id, type: 'user', status: 'upheld', title: 'Cheap Watches' } },
    ]);
    const hers = (await p.call('member/notify_list', { token: alice.token })).ret as unknown[];
    expect(hers).toMatchObject([{ kind: 'profile_reset', data: { reason: 'Advertising' } }]);
    // The reset is not a rename of hers: she picks a new nickname at once, without the 30 days between renames.
    expect((await p.call('member/profile_update', { token: alice.token, username: 'Alice' })).ret).toMatchObject({
      username: 'Alice',
    });
  });

  it('refuses to report oneself, a member who is not, or a cancelled account', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    expect(await report(p, alice.token, alice.id, 'Spam', 'user')).toMatchObject({
      err: 'you cannot report yourself',
      code: 'report_self',
    });
    for (const bad of ['nope', '0', 'x'.repeat(40)]) {
      expect(await report(p, alice.token, bad, 'Spam', 'user')).toMatchObject({ code: 'user_missing' });
    }
    const pending = (await report(p, alice.token, bob.id, 'Spam', 'user')).ret as Row;
    expect(await p.call('member/out', { token: bob.token, reason: 'bye', agree: true })).toMatchObject({ ret: true });
    expect(await report(p, alice.token, bob.id, 'Spam', 'user')).toMatchObject({ code: 'user_missing' });
    // A report of him still under review is upheld without bringing the account back.
    expect((await reviews(p, 'POST', `/${pending.id}/review`, { uphold: true, reason: 'Spam' })).status).toBe(200);
    expect(await p.call('member/profile', { token: alice.token, id: bob.id })).toMatchObject({ code: 'user_missing' });
  });

  it('titles the report of a post written before posts had titles with the start of its text', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    await untitledPost(p, alice.id, 'old1', 'Cheap watches,\nbest prices in town: message me today for the list');
    const sent = await report(p, bob.token, 'old1', 'Spam', 'quanzi');
    expect(sent.ret).toMatchObject({ type: 'quanzi', target_id: 'old1', title: 'Cheap watches, best prices in…' });
    expect([...(sent.ret.title as string)]).toHaveLength(30);
  });

  it('refuses to report a circle post across a block, or one that is not', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const id = (await p.call('member/quanzi_add', { token: alice.token, title: 'Say hello', content: 'Hello' }))
      .id as string;
    expect(await report(p, bob.token, 'nope', 'Spam', 'quanzi')).toMatchObject({ code: 'post_missing' });
    await p.call(`member/lahei/uid_s/${bob.id}`, { token: alice.token });
    expect(await report(p, bob.token, id, 'Spam', 'quanzi')).toMatchObject({ code: 'post_missing' });
  });

  it('refuses what cannot be reported, blank words, a bad page or queue, wrong secrets and missing tokens', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const id = await article(p, alice.token);
    const blank = { err: 'please describe the problem', code: 'report_content_invalid' };
    for (const content of ['', '  ', 'x'.repeat(201), 7, 'bell\u0007']) {
      expect(await report(p, bob.token, id, content)).toMatchObject(blank);
    }
    expect(await report(p, bob.token, id, 'Spam', 'video')).toMatchObject({ code: 'bad_params' });
    expect(await report(p, bob.token, 'nope')).toMatchObject({ code: 'article_missing' });
    // Across a block there is nothing to see, nor to report.
    await p.call(`member/lahei/uid_s/${alice.id}`, { token: bob.token });
    expect(await report(p, bob.token, id)).toMatchObject({ code: 'article_missing' });
    expect(await p.call('member/jubao_list', { token: bob.token, before: 'nope' })).toMatchObject({
      code: 'bad_params',
    });
    for (const bad of [undefined, 'nope', 7]) {
      expect(await p.call('member/jubao_view', { token: bob.token, id: bad })).toMatchObject({
        code: 'report_missing',
      });
    }
    expect(await reviews(p, 'GET', '?status=maybe')).toMatchObject({ status: 400 });
    expect(await reviews(p, 'GET', '?after=nope')).toMatchObject({ status: 400 });
    expect(await reviews(p, 'POST', '/nope/review', { uphold: 'yes', reason: 'x' })).toMatchObject({ status: 400 });
    const denied = { status: 401, code: 401, content: 'No permission' };
    expect(await reviews(p, 'GET', '', undefined, 'wrong')).toEqual(denied);
    for (const path of [`member/jubao_add/type/article/aid/${id}`, 'member/jubao_list', 'member/jubao_view']) {
      expect(await p.call(path, { token: 'nope' })).toMatchObject({ code: 'token_invalid' });
    }
  });

  it('takes 20 reports a day from a member, even sent at once', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const ids: string[] = [];
    for (let i = 0; i < 22; i += 1) ids.push(await article(p, i < 20 ? alice.token : bob.token));
    const carol = await signIn(p, '13700137000');
    const answers = await Promise.all(ids.map((id) => report(p, carol.token, id)));
    expect(answers.filter((a) => a['ret'] !== undefined)).toHaveLength(20);
    expect(answers.filter((a) => a['code'] === 'too_frequent')).toHaveLength(2);
  });
});
