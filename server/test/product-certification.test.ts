import { describe, expect, it } from 'vitest';
import { operator, type ProductServer, productServer, signIn, uploadImage } from './product-support.js';

/** A resident identity card number with a correct check character (GB 11643), born 1949-12-31. */
const ID_NUMBER = '11010519491231002X';
/** A unified social credit code with a correct check character (GB 32100). */
const CREDIT_CODE = '91350100M000100Y43';

const submit = (p: ProductServer, token: string, body: Record<string, unknown>) =>
  p.call('member/renzheng_add', { token, ...body });
const info = async (p: ProductServer, token: string): Promise<unknown> =>
  (await p.call('member/renzheng_info', { token })).ret;

const reviews = (p: ProductServer, method: 'GET' | 'POST', path: string, body?: unknown, secret?: string) =>
  operator(p, 'certifications', method, path, body, secret);

async function personal(p: ProductServer, token: string, extra: Record<string, unknown> = {}) {
  const imgs = [await uploadImage(p, token), await uploadImage(p, token)];
  return { type: 'personal', name: ' 王小明 ', number: ID_NUMBER.toLowerCase(), imgs, ...extra };
}

describe('product real-name certification: member/renzheng', () => {
  it('goes from none to under review, failed with a reason, resubmitted and passed; the user object says so', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    expect(await info(p, alice.token)).toBeNull();
    expect((await p.call('member/info', { token: alice.token })).ret).toMatchObject({ shiming: 0 });

    const form = await personal(p, alice.token);
    const submitted = await submit(p, alice.token, form);
    const pending = {
      type: 'personal',
      name: '王小明',
      number: `1${'*'.repeat(16)}X`,
      status: 'pending',
      reason: '',
      submitted_at: p.now(),
      reviewed_at: null,
    };
    expect(submitted).toEqual({ status: 200, ret: pending });
    expect(await info(p, alice.token)).toEqual(pending);
    // Under review it cannot be changed.
    expect(await submit(p, alice.token, form)).toMatchObject({
      err: 'the certification is under review and cannot be changed',
      code: 'cert_pending',
    });

    // The operator sees the whole submission, and fails it with a reason.
    const queue = await reviews(p, 'GET', '');
    expect(queue).toEqual({
      status: 200,
      code: 200,
      content: [
        {
          memberId: alice.id,
          type: 'personal',
          name: '王小明',
          number: ID_NUMBER,
          images: form.imgs,
          status: 'pending',
          reason: '',
          submittedAt: p.now(),
          reviewedAt: null,
        },
      ],
    });
    const submittedAt = p.now();
    p.advance(60_000);
    const failed = await reviews(p, 'POST', `/${alice.id}/review`, {
      pass: false,
      reason: 'The photo is blurred',
      submittedAt,
    });
    expect(failed).toMatchObject({ status: 200, content: { status: 'failed', reason: 'The photo is blurred' } });
    expect(await info(p, alice.token)).toMatchObject({
      status: 'failed',
      reason: 'The photo is blurred',
      reviewed_at: p.now(),
    });
    expect((await reviews(p, 'GET', '?status=failed')).content).toHaveLength(1);
    expect((await reviews(p, 'GET', '')).content).toEqual([]);

    // Resubmitted, then passed: member/info and others' view of the profile say so.
    p.advance(60_000);
    expect(await submit(p, alice.token, await personal(p, alice.token))).toMatchObject({ ret: { status: 'pending' } });
    const passed = await reviews(p, 'POST', `/${alice.id}/review`, { pass: true, submittedAt: p.now() });
    expect(passed).toMatchObject({ status: 200, content: { status: 'passed', reason: '' } });
    expect(await info(p, alice.token)).toMatchObject({ status: 'passed' });
    expect((await p.call('member/info', { token: alice.token })).ret).toMatchObject({ shiming: 1 });
    expect((await p.call('member/profile', { token: bob.token, id: alice.id })).ret).toMatchObject({ shiming: 1 });
    expect((await p.call('member/profile', { token: alice.token, id: bob.id })).ret).toMatchObject({ shiming: 0 });
    expect(await submit(p, alice.token, await personal(p, alice.token))).toMatchObject({
      err: 'already certified',
      code: 'cert_passed',
    });
  });

  it('certifies an organisation by its unified social credit code and one photo of its licence', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const licence = await uploadImage(p, alice.token);
    const answer = await submit(p, alice.token, {
      type: 'enterprise',
      name: 'Parley Tech Co., Ltd.',
      number: CREDIT_CODE,
      imgs: [licence],
    });
    expect(answer).toMatchObject({ ret: { type: 'enterprise', number: `9${'*'.repeat(16)}3`, status: 'pending' } });
  });

  it('refuses what is not a correct submission, each with its code, and changes nothing', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const form = await personal(p, alice.token);
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ type: 'company' }, 'cert_type_invalid'],
      [{ type: undefined }, 'cert_type_invalid'],
      [{ name: '王' }, 'cert_name_invalid'],
      [{ name: 'Wang 2' }, 'cert_name_invalid'],
      [{ name: 'x'.repeat(31) }, 'cert_name_invalid'],
      [{ name: 'Wang\u0007' }, 'cert_name_invalid'],
      [{ name: 7 }, 'cert_name_invalid'],
      // A wrong check character, a birth date that does not exist, one to come, and a credit code for a person.
      [{ number: '110105194912310021' }, 'cert_number_invalid'],
      [{ number: '110105194902300020' }, 'cert_number_invalid'],
      [{ number: '110105203001010011' }, 'cert_number_invalid'],
      [{ number: CREDIT_CODE }, 'cert_number_invalid'],
      [{ number: 11010519491231 }, 'cert_number_invalid'],
      [{ imgs: form.imgs.slice(0, 1) }, 'cert_images_invalid'],
      [{ imgs: [form.imgs[0], form.imgs[0]] }, 'cert_images_invalid'],
      [{ imgs: [...form.imgs, form.imgs[0]] }, 'cert_images_invalid'],
      [{ imgs: 'x.png' }, 'cert_images_invalid'],
      [{ imgs: [form.imgs[0], await uploadImage(p, bob.token)] }, 'cert_images_invalid'],
      [{ type: 'enterprise', number: '91350100M000100Y44' }, 'cert_number_invalid'],
      [{ type: 'enterprise', number: ID_NUMBER }, 'cert_number_invalid'],
    ];
    for (const [change, code] of bad) {
      expect(await submit(p, alice.token, { ...form, ...change }), JSON.stringify(change)).toMatchObject({
        status: 200,
        err: 'parameter error',
        code,
      });
    }
    expect(await info(p, alice.token)).toBeNull();
    expect(await submit(p, 'nope', form)).toMatchObject({ code: 'token_invalid' });
    expect(await p.call('member/renzheng_info', { token: 'nope' })).toMatchObject({ code: 'token_invalid' });
  });

  it("the operator's API needs the product app's secret, and takes only a correct review of what is under review", async () => {
    const p = await productServer();
    const alice = await signIn(p);
    await submit(p, alice.token, await personal(p, alice.token));
    const submittedAt = p.now();
    const denied = { status: 401, code: 401, content: 'No permission' };
    expect(await reviews(p, 'GET', '', undefined, 'wrong')).toEqual(denied);
    expect(await reviews(p, 'POST', `/${alice.id}/review`, { pass: true, submittedAt }, 'wrong')).toEqual(denied);
    const other = await fetch(`${p.url}/api/v1/apps/open-app/certifications`, {
      headers: { authorization: 'Bearer open-secret' },
    });
    expect(other.status).toBe(401);

    expect(await reviews(p, 'GET', '?status=maybe')).toMatchObject({ status: 400, code: 400 });
    expect(await reviews(p, 'GET', '?after=nobody')).toMatchObject({ status: 400 });
    expect(await reviews(p, 'POST', `/${alice.id}/review`, { pass: 'yes', submittedAt })).toMatchObject({
      status: 400,
      content: 'pass must be boolean.',
    });
    expect(await reviews(p, 'POST', `/${alice.id}/review`, { pass: false, submittedAt })).toMatchObject({
      status: 400,
      content: 'reason is required: 1 to 100 characters.',
    });
    expect(
      await reviews(p, 'POST', `/${alice.id}/review`, { pass: false, reason: 'x'.repeat(101), submittedAt }),
    ).toMatchObject({ status: 400 });
    expect(await reviews(p, 'POST', `/${alice.id}/review`, { pass: true })).toMatchObject({ status: 400 });
    expect(await reviews(p, 'POST', `/${alice.id}/review`, [])).toMatchObject({ status: 400 });
    // A review of another submission, or of none, lands nowhere.
    const stale = { pass: true, submittedAt: submittedAt - 1 };
    expect(await reviews(p, 'POST', `/${alice.id}/review`, stale)).toEqual({
      status: 404,
      code: 404,
      content: 'no such certification under review',
    });
    expect(await reviews(p, 'POST', '/nobody/review', { pass: true, submittedAt })).toMatchObject({ status: 404 });
    expect(await info(p, alice.token)).toMatchObject({ status: 'pending' });
    // Reviewed once; a second review finds nothing under review.
    expect(await reviews(p, 'POST', `/${alice.id}/review`, { pass: true, submittedAt })).toMatchObject({
      status: 200,
    });
    expect(await reviews(p, 'POST', `/${alice.id}/review`, { pass: false, reason: 'x', submittedAt })).toMatchObject({
      status: 404,
    });
  });

  it('a cancelled account takes its certification with it', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    await submit(p, alice.token, await personal(p, alice.token));
    expect(await p.call('member/out', { token: alice.token, reason: 'moving', agree: true })).toMatchObject({
      ret: true,
    });
    expect((await reviews(p, 'GET', '')).content).toEqual([]);
  });
});
