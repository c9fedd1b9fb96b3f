import { describe, expect, it } from 'vitest';
import { operator, type ProductServer, productServer, signIn, uploadImage } from './product-support.js';

const ID_NUMBER = '11010519491231002X';

const info = async (p: ProductServer, token: string) => (await p.call('shop/apply_info', { token })).ret as unknown;
const apply = (p: ProductServer, token: string, body: Record<string, unknown>) =>
  p.call('shop/apply', { token, ...body });
const reviews = (p: ProductServer, method: 'GET' | 'POST', path: string, body?: unknown, secret?: string) =>
  operator(p, 'shops', method, path, body, secret);

/** Certifies the member: a personal submission, passed by the operator. */
async function certify(p: ProductServer, token: string, memberId: string) {
  const imgs = [await uploadImage(p, token), await uploadImage(p, token)];
  const submitted = await p.call('member/renzheng_add', {
    token,
    type: 'personal',
    name: '王小明',
    number: ID_NUMBER,
    imgs,
  });
  const submittedAt = (submitted.ret as { submitted_at: number }).submitted_at;
  const passed = await operator(p, 'certifications', 'POST', `/${memberId}/review`, { pass: true, submittedAt });
  expect(passed.status).toBe(200);
}

describe('product shop application: shop/apply', () => {
  it('needs real-name certification first, then checks the icon, the name and the description', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    expect(await info(p, alice.token)).toEqual({ certified: false, shop: null, unread_announcements: 0 });
    const icon = await uploadImage(p, alice.token);
    const good = { name: ' Tea House ', icon, intro: 'Fresh tea\r\nfrom the hills' };
    expect(await apply(p, alice.token, good)).toEqual({
      status: 200,
      err: 'please complete real-name certification first',
      code: 'shop_cert_required',
    });
    await certify(p, alice.token, alice.id);
    expect(await info(p, alice.token)).toEqual({ certified: true, shop: null, unread_announcements: 0 });

    const refused = async (body: Record<string, unknown>, code: string, err: string) =>
      expect(await apply(p, alice.token, { ...good, ...body })).toEqual({ status: 200, err, code });
    const badName = 'please enter the shop name: 2 to 20 characters';
    for (const name of ['', ' T ', 'x'.repeat(21), 'Tea\nHouse', 7, undefined]) {
      await refused({ name }, 'shop_name_invalid', badName);
    }
    const badIcon = 'please upload the shop icon';
    for (const other of [undefined, '', 'https://elsewhere.example/i.png', ['x'], await uploadImage(p, bob.token)]) {
      await refused({ icon: other }, 'shop_icon_invalid', badIcon);
    }
    const badIntro = 'please enter the shop description';
    for (const intro of ['', '   ', 'x'.repeat(201), 3]) await refused({ intro }, 'shop_intro_invalid', badIntro);

    const asked = await apply(p, alice.token, good);
    expect(asked).toEqual({
      status: 200,
      ret: {
        id: expect.stringMatching(/^[0-9a-f]{16}$/),
        name: 'Tea House',
        icon,
        intro: 'Fresh tea\nfrom the hills',
        status: 'pending',
        reason: '',
        submitted_at: p.now(),
        reviewed_at: null,
      },
    });
    expect(await info(p, alice.token)).toEqual({ certified: true, shop: asked.ret, unread_announcements: 0 });
    await refused({ name: 'Another' }, 'shop_pending', 'the application is under review and cannot be edited');

    // The name is Alice's while her shop is under review.
    await certify(p, bob.token, bob.id);
    const bobIcon = await uploadImage(p, bob.token);
    expect(await apply(p, bob.token, { ...good, icon: bobIcon })).toMatchObject({
      code: 'shop_name_taken',
      err: 'the shop name is taken',
    });
  });

  it('is rejected with a reason, resubmitted, approved; the member is told each time', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    await certify(p, alice.token, alice.id);
    const icon = await uploadImage(p, alice.token);
    const first = (await apply(p, alice.token, { name: 'Tea House', icon, intro: 'Tea' })).ret as {
      id: string;
      submitted_at: number;
    };
    const queue = await reviews(p, 'GET', '');
    expect(queue.content).toEqual([
      {
        id: first.id,
        memberId: alice.id,
        name: 'Tea House',
        icon,
        intro: 'Tea',
        status: 'pending',
        reason: '',
        submittedAt: first.submitted_at,
        reviewedAt: null,
      },
    ]);
    const path = `/${first.id}/review`;
    expect(await reviews(p, 'POST', path, { pass: false, submittedAt: first.submitted_at })).toEqual({
      status: 400,
      code: 400,
      content: 'reason is required: 1 to 100 characters.',
    });
    expect(await reviews(p, 'POST', path, { pass: true })).toMatchObject({
      status: 400,
      content: 'submittedAt must be the application time.',
    });
    expect(await reviews(p, 'POST', path, { pass: 'yes', submittedAt: first.submitted_at })).toMatchObject({
      status: 400,
    });
    p.advance(1000);
    const rejected = await reviews(p, 'POST', path, {
      pass: false,
      reason: 'The icon is blurred',
      submittedAt: first.submitted_at,
    });
    expect(rejected).toMatchObject({ status: 200, content: { status: 'rejected', reviewedAt: p.now() } });
    expect(await reviews(p, 'POST', path, { pass: true, submittedAt: first.submitted_at })).toEqual({
      status: 404,
      code: 404,
      content: 'no such shop application under review',
    });
    expect(await info(p, alice.token)).toMatchObject({ shop: { status: 'rejected', reason: 'The icon is blurred' } });

    p.advance(1000);
    const second = (await apply(p, alice.token, { name: 'Tea Garden', icon, intro: 'Tea' })).ret as {
      id: string;
      submitted_at: number;
    };
    expect(second.id).toBe(first.id);
    // The review of the first application does not land on the second.
    expect(await reviews(p, 'POST', path, { pass: true, submittedAt: first.submitted_at })).toMatchObject({
      status: 404,
    });
    expect(await reviews(p, 'POST', path, { pass: true, submittedAt: second.submitted_at })).toMatchObject({
      status: 200,
      content: { status: 'approved', name: 'Tea Garden' },
    });
    expect(await apply(p, alice.token, { name: 'Tea Garden', icon, intro: 'Tea' })).toMatchObject({
      code: 'shop_approved',
      err: 'your shop is already open',
    });
    expect((await reviews(p, 'GET', '?status=approved')).content).toMatchObject([{ id: first.id }]);
    expect(await reviews(p, 'GET', '?status=maybe')).toMatchObject({ status: 400 });
    expect(await reviews(p, 'GET', '?after=nope')).toMatchObject({ status: 400 });
    expect(await reviews(p, 'GET', '', undefined, 'wrong')).toEqual({
      status: 401,
      code: 401,
      content: 'No permission',
    });

    const notices = (await p.call('member/notify_list', { token: alice.token })).ret as Array<Record<string, unknown>>;
    expect(notices.filter((n) => n['kind'] === 'shop').map((n) => n['data'])).toEqual([
      { status: 'approved', reason: '', title: 'Tea Garden' },
      { status: 'rejected', reason: 'The icon is blurred', title: 'Tea House' },
    ]);
    for (const route of ['shop/apply_info', 'shop/apply']) {
      expect(await p.call(route, { token: 'nope' })).toMatchObject({ code: 'token_invalid' });
    }
  });
});
