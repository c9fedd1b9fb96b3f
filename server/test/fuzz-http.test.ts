/**
 * The HTTP API fed generated input: the product app's calls (spec §7), the app servers' otp and publish calls, and
 * the upload storage's paths. Whatever arrives, the answer is the route's own shape with a client error at worst
 * (never a 500, which is what an exception the handlers did not expect becomes), and the server still serves valid
 * calls afterwards.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CODES } from '../src/protocol.js';
import { UPLOAD_PATH } from '../src/uploads/service.js';
import { SECURE_APP, storesUnderTest, tempDir } from './helpers.js';
import { anyValue, brokenRequest, FUZZ_RUNS, type Pools } from './fuzz-support.js';
import { PHONE, startProductServer } from './product-support.js';

/** An answer as it came: the HTTP status and the JSON body (null when the body is not JSON). */
interface Answer {
  status: number;
  body: Record<string, unknown> | null;
}

async function answerOf(res: Response): Promise<Answer> {
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as Record<string, unknown> };
  } catch {
    return { status: res.status, body: null };
  }
}

/** Server errors are never an answer to input; client errors carry `{code, content}` with the same code. */
function expectWireAnswer(where: string, { status, body }: Answer): void {
  expect(status, where).toBeLessThan(500);
  if (status >= 400) {
    expect(body, where).toMatchObject({ code: status, content: expect.any(String) as unknown });
  }
}

/** A product answer: `{ret}`, or a refusal `{err, code}` the app shows; a body that is no object is a 400. */
function expectProductAnswer(where: string, answer: Answer): void {
  expectWireAnswer(where, answer);
  if (answer.status !== 200) return;
  const body = answer.body ?? {};
  if ('ret' in body) return;
  expect(body, where).toMatchObject({ err: expect.any(String) as unknown, code: expect.any(String) as unknown });
  expect((body['err'] as string).length, where).toBeGreaterThan(0);
}

const describeInput = (input: unknown) => JSON.stringify(input)?.slice(0, 300) ?? String(input);

describe.each(storesUnderTest())('any HTTP input, on %s', (_name, store) => {
  it('gets an answer in each route’s shape, never a 500, and the server keeps serving', async () => {
    const p = await startProductServer(undefined, {
      uploads: { dir: tempDir(), s3: undefined },
      live: { pushUrl: 'rtmp://media.test/live/{stream}?key={key}', playUrl: 'https://media.test/{stream}.m3u8' },
      ...store(),
    });
    await p.call('member/send_code', { phone: PHONE });
    const login = await p.call('member/login', { phone: PHONE, code: p.sms.lastCode(PHONE), agree: true });
    const token = login.ret.token as string;
    const id = login.ret.id as string;
    // Another member, whose account `member/out` is fuzzed with: signed in before the calls use up the
    // address's limits.
    const other = '13700137001';
    await p.call('member/send_code', { phone: other });
    const otherLogin = await p.call('member/login', { phone: other, code: p.sms.lastCode(other), agree: true });
    const otherToken = otherLogin.ret.token as string;
    const upload = await p.call('member/qiniu_token', { token });
    const img = `${upload.url_prefix as string}${upload.key_prefix as string}${'a'.repeat(32)}.png`;
    const common = { app: 'h5', i18n: 'en' };
    const qr = (await p.call('member/qr_login', { agree: true })).ret as { ticket: string; key: string };
    // The calls as the app makes them; `member/logout` last, since it ends the session the others use.
    const product: Array<[path: string, bases: Array<Record<string, unknown>>]> = [
      ['index/config', [common]],
      ['member/send_code', [{ ...common, phone: '13900139000', quhao: '86' }]],
      ['member/login', [{ ...common, phone: PHONE, code: '123456', agree: true, quhao: '86' }]],
      ['member/info', [{ ...common, token }]],
      ['member/qr_login', [{ ...common, agree: true }]],
      ['member/qr_login_status', [{ ...common, ticket: qr.ticket, key: qr.key }]],
      ['member/qr_login_scan', [{ ...common, token, ticket: qr.ticket }]],
      ['member/qr_login_confirm', [{ ...common, token, ticket: qr.ticket }]],
      ['member/qr_login_cancel', [{ ...common, token, ticket: qr.ticket }]],
      ['ad/list', [{ ...common, position: 'article' }]],
      ['index/tianqi', [{ ...common, latitude: 30.25, longitude: 120.17 }]],
      ['index/city', [{ ...common, latitude: 30.25, longitude: 120.17 }]],
      ['index/city_search', [{ ...common, keyword: 'Hangzhou' }]],
      ['ad/click', [{ ...common, id: '12345678', zhanshi: 1 }]],
      ['live/list', [{ ...common, token, page: 1 }]],
      ['live/view', [{ ...common, token, id: 'abc' }]],
      ['live/mine', [{ ...common, token }]],
      ['live/add', [{ ...common, token, title: 'Tea tasting', cover: img }]],
      ['live/start', [{ ...common, token, id: 'abc' }]],
      ['live/end', [{ ...common, token, id: 'abc' }]],
      ['live/goods', [{ ...common, token, id: 'abc', goods: ['abc'] }]],
      ['live/say', [{ ...common, token, id: 'abc', text: 'Hello' }]],
      ['live/ban', [{ ...common, token, id: 'abc', uid: id, kind: 'mute' }]],
      ['live/restore', [{ ...common, token, id: 'abc', uid: id }]],
      ['live/bans', [{ ...common, token, id: 'abc' }]],
      ['live/link_request', [{ ...common, token, id: 'abc' }]],
      ['live/link_cancel', [{ ...common, token, id: 'abc' }]],
      ['live/links', [{ ...common, token, id: 'abc' }]],
      ['live/link_accept', [{ ...common, token, id: 'abc', uid: id }]],
      ['live/link_reject', [{ ...common, token, id: 'abc', uid: id }]],
      ['live/link_end', [{ ...common, token, id: 'abc', uid: id }]],
      ['member/profile', [{ ...common, token, id }]],
      [
        'member/profile_update',
        [
          { ...common, token, username: 'Nick' },
          { ...common, token, img },
          {
            ...common,
            token,
            gender: 'male',
            birthday: '1990-01-01',
            region: 'Beijing',
            qianming: 'hi',
            background: img,
          },
        ],
      ],
      ['member/qiniu_token', [{ ...common, token }]],
      [
        'member/feedback_add',
        [
          { ...common, token, phone: '13700137000', content: 'It crashes.', imgs: [img] },
          { ...common, token, phone: '2025550143', quhao: '+1', content: 'Slow.' },
        ],
      ],
      [
        'member/feedback_list',
        [
          { ...common, token },
          { ...common, token, before: 'abc' },
        ],
      ],
      [
        'member/lahei/uid_s/12345678',
        [
          { ...common, token },
          { ...common, token, block: false },
        ],
      ],
      ['member/lahei_list', [{ ...common, token }]],
      [
        'member/guanzhu/uid_s/12345678',
        [
          { ...common, token },
          { ...common, token, follow: false },
        ],
      ],
      ['member/renzheng_info', [{ ...common, token }]],
      ['renwu/index', [{ ...common, token }]],
      ['renwu/sign', [{ ...common, token }]],
      ['renwu/jinbi_list', [{ ...common, token, before: 'abc' }]],
      ['renwu/tixian_info', [{ ...common, token }]],
      [
        'renwu/tixian_band',
        [
          { ...common, token, type: 'alipay', name: '王小明', account: '13800138000' },
          { ...common, token, type: 'wechat', img: 'https://x/code.png' },
        ],
      ],
      ['renwu/tixian', [{ ...common, token, amount: 1, type: 'alipay', agree: true }]],
      ['renwu/tixian_list', [{ ...common, token, before: 'abc' }]],
      ['member/money', [{ ...common, token }]],
      ['member/recharge', [{ ...common, token, money: 10, type: 'alipay', agree: true }]],
      ['member/recharge_cancel', [{ ...common, token, id: 'abc' }]],
      ['member/recharge_list', [{ ...common, token, before: 'abc' }]],
      ['member/money_list', [{ ...common, token, before: 'abc' }]],
      ['shop/apply_info', [{ ...common, token }]],
      ['shop/typeid', [{ ...common }]],
      ['shop/list', [{ ...common, token, typeid: 'abc', shop: 'abc', before: 'abc' }]],
      ['shop/shop', [{ ...common, token, id: 'abc' }]],
      ['shop/view', [{ ...common, token, id: 'abc' }]],
      ['shop/shoucang', [{ ...common, token, id: 'abc', shoucang: true }]],
      ['shop/shoucang_list', [{ ...common, token, before: 'abc' }]],
      ['shop/shoucang_del', [{ ...common, token, ids: ['abc'] }]],
      ['shop/history', [{ ...common, token, before: 'abc' }]],
      ['shop/history_del', [{ ...common, token, ids: ['abc'] }]],
      [
        'shop/business_add',
        [{ ...common, token, imgs: [], title: 'Green tea', price: 12.5, typeid: 'abc', stock: 3, content: 'Tea' }],
      ],
      [
        'shop/business_edit',
        [{ ...common, token, id: 'abc', imgs: [], title: 'Tea', price: 1, typeid: 'abc', stock: 3, content: 'Tea' }],
      ],
      ['shop/business_list', [{ ...common, token, status: 'pending', before: 'abc' }]],
      ['shop/business_shelf', [{ ...common, token, id: 'abc', on: true }]],
      ['shop/apply', [{ ...common, token, name: 'Tea House', icon: 'https://x/icon.png', intro: 'Tea' }]],
      ['shop/code', [{ ...common, token, items: [{ id: 'abc', num: 1 }], address: 'abc' }]],
      ['shop/pay_payment', [{ ...common, token, code: 'abc', type: 'balance' }]],
      ['shop/order_list', [{ ...common, token, status: 'unpaid', before: 'abc' }]],
      ['shop/business_order', [{ ...common, token, status: 'paid', before: 'abc' }]],
      ['shop/order_view', [{ ...common, token, id: 'abc' }]],
      ['shop/order_cancel', [{ ...common, token, id: 'abc' }]],
      ['shop/order_confirm', [{ ...common, token, id: 'abc' }]],
      ['shop/business_send', [{ ...common, token, id: 'abc', company: 'SF', number: 'SF1234' }]],
      ['shop/business_tixian_info', [{ ...common, token }]],
      ['shop/business_tixian', [{ ...common, token, amount: 1, type: 'alipay', agree: true }]],
      ['shop/business_tixian_list', [{ ...common, token, before: 'abc' }]],
      [
        'shop/drawback',
        [
          {
            ...common,
            token,
            id: 'abc',
            amount: 1,
            reason: 'Damaged',
            description: 'Crushed',
            imgs: ['https://x/a.png'],
          },
        ],
      ],
      ['shop/drawback_cancel', [{ ...common, token, id: 'abc' }]],
      ['shop/drawback_send', [{ ...common, token, id: 'abc', company: 'SF', number: 'SF1234' }]],
      ['shop/business_drawback', [{ ...common, token, id: 'abc', agree: false, reason: 'No' }]],
      ['shop/business_drawback_receive', [{ ...common, token, id: 'abc' }]],
      [
        'shop/claim_add',
        [{ ...common, token, id: 'abc', kind: 'damage', description: 'Crushed', images: ['https://x/a.png'] }],
      ],
      ['shop/claim_cancel', [{ ...common, token, id: 'abc' }]],
      ['shop/ping_add', [{ ...common, token, id: 'abc', quality: 5, service: 5, logistics: 5, content: 'Good' }]],
      ['shop/ping_list', [{ ...common, token, id: 'abc', before: 'abc' }]],
      ['shop/user_ping', [{ ...common, token, before: 'abc' }]],
      ['shop/business_ping', [{ ...common, token, before: 'abc', replied: false }]],
      ['shop/business_ping_reply', [{ ...common, token, id: 'abc', content: 'Thanks' }]],
      ['shop/gonggao_list', [{ ...common, token, before: 'abc' }]],
      ['shop/gonggao_view', [{ ...common, token, id: 'abc' }]],
      ['renwu/yaoqing_info', [{ ...common, token }]],
      ['renwu/yaoqing_list', [{ ...common, token, before: 'abc' }]],
      [
        'member/article_add',
        [{ ...common, token, title: 'A day at the lake', content: 'Text', imgs: [], typeid: 'abc' }],
      ],
      ['article/list', [{ ...common, token, uid: id, before: 'abc', typeid: 'abc' }]],
      ['article/typeid', [{ ...common, token }]],
      [
        'member/video_add',
        [{ ...common, token, title: 'A day at the lake', content: 'Text', video: 'abc', img: 'abc', typeid: 'abc' }],
      ],
      ['video/lists', [{ ...common, token, before: 'abc', typeid: 'abc' }]],
      ['video/lists/in/abc', [{ ...common, token, before: 'abc' }]],
      [
        'member/quanzi_add',
        [
          { ...common, token, title: 'By the lake', content: 'Spring', imgs: [], topic: 'abc' },
          {
            ...common,
            token,
            title: 'Hills or sea?',
            content: 'Where next?',
            vote: { options: ['Hills', 'Sea'], days: 1 },
          },
        ],
      ],
      ['quanzi/list', [{ ...common, token, uid: id, before: 'abc' }]],
      ['topic/index', [{ ...common, token }]],
      ['topic/list', [{ ...common, token, id: 'abc', before: 'abc' }]],
      ['quanzi/view', [{ ...common, token, id: 'abc' }]],
      ['quanzi/vote', [{ ...common, token, id: 'abc', option: 0 }]],
      ['member/quanzi_del', [{ ...common, token, id: 'abc' }]],
      ['quanzi/ping_add', [{ ...common, token, id: 'abc', content: 'Hi', reply_to: 'c1' }]],
      ['quanzi/ping_list', [{ ...common, token, id: 'abc', before: 'abc' }]],
      ['member/quanzi_ping_del', [{ ...common, token, id: 'abc' }]],
      ['quanzi/zan', [{ ...common, token, id: 'abc', zan: true }]],
      ['quanzi/zan_list', [{ ...common, token, id: 'abc', before: 'abc' }]],
      ['member/typeid_set', [{ ...common, token, ids: ['abc'] }]],
      ['article/view', [{ ...common, token, id: 'abc' }]],
      ['member/article_del', [{ ...common, token, id: 'abc' }]],
      ['article/ping_add', [{ ...common, token, id: 'abc', content: 'Hi', reply_to: 'c1' }]],
      ['article/ping_list', [{ ...common, token, id: 'abc', before: 'abc' }]],
      ['member/ping_del', [{ ...common, token, id: 'abc' }]],
      ['article/zan', [{ ...common, token, id: 'abc', zan: true }]],
      ['article/zan_list', [{ ...common, token, id: 'abc', before: 'abc' }]],
      ['member/jubao_add/type/article/aid/abc', [{ ...common, token, content: 'Spam' }]],
      ['member/yinbi/name/article/aid/abc', [{ ...common, token, hide: true }]],
      ['member/yinbi/name/quanzi/aid/abc', [{ ...common, token, hide: false }]],
      ['member/jubao_list', [{ ...common, token, before: 'abc' }]],
      ['member/jubao_view', [{ ...common, token, id: 'abc' }]],
      ['article/shoucang', [{ ...common, token, id: 'abc', shoucang: true }]],
      ['member/record', [{ ...common, token, before: 'abc' }]],
      ['member/user_list', [{ ...common, token, keyword: 'user', before: 'abc' }]],
      ['member/notify_list', [{ ...common, token, before: 'abc' }]],
      ['member/notify_read', [{ ...common, token, id: 'abc' }]],
      ['member/notify_settings', [{ ...common, token, follow: false, comment: false, like: true }]],
      [
        'member/renzheng_add',
        [
          { ...common, token, type: 'personal', name: 'Wang', number: '11010519491231002X', imgs: [] },
          { ...common, token, type: 'enterprise', name: 'Parley', number: '91350100M000100Y43', imgs: ['x'] },
        ],
      ],
      [
        'member/guanzhu_list',
        [
          { ...common, token },
          { ...common, token, type: 'fans', id, before: 'abc' },
        ],
      ],
      [
        'member/address_add',
        [
          {
            ...common,
            token,
            name: 'Li',
            phone: '13800138000',
            region: 'Hangzhou',
            detail: 'Road 1',
            is_default: true,
          },
        ],
      ],
      ['member/address_edit', [{ ...common, token, id: 'abc', name: 'Li', phone: PHONE, region: 'R', detail: 'D' }]],
      ['member/address_default', [{ ...common, token, id: 'abc' }]],
      ['member/address_del', [{ ...common, token, id: 'abc' }]],
      ['member/address_list', [{ ...common, token }]],
      ['member/logout', [{ ...common, token }]],
    ];
    const pools: Pools = {
      ids: [id, 'nobody', PHONE, token, img],
      times: [p.now(), 0, 1],
      keys: [...new Set(product.flatMap(([, bases]) => bases.flatMap((b) => Object.keys(b))))],
    };
    const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${p.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      }).then(answerOf);
    const patchJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${p.url}${path}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      }).then(answerOf);

    for (const [path, bases] of product) {
      await fc.assert(
        fc.asyncProperty(brokenRequest(bases, pools), async (input) => {
          expectProductAnswer(`${path} ${describeInput(input)}`, await postJson(`/index.php/api/${path}`, input));
        }),
        { numRuns: FUZZ_RUNS },
      );
    }

    // Account cancellation, as the other member: it may cancel that account, which the pools do not reach beyond.
    const outBases = [{ ...common, token: otherToken, reason: 'moving', agree: false }];
    const outPools: Pools = {
      ids: [otherLogin.ret.id as string, 'nobody', otherToken],
      times: pools.times,
      keys: Object.keys(outBases[0] ?? {}),
    };
    await fc.assert(
      fc.asyncProperty(brokenRequest(outBases, outPools), async (input) => {
        expectProductAnswer(`member/out ${describeInput(input)}`, await postJson('/index.php/api/member/out', input));
      }),
      { numRuns: FUZZ_RUNS },
    );

    // The app servers' calls, with the app's secret and without it.
    const bearer = fc.constantFrom(`Bearer ${SECURE_APP.secretKey}`, 'Bearer wrong', SECURE_APP.secretKey, '');
    await fc.assert(
      fc.asyncProperty(
        brokenRequest([{ appkey: SECURE_APP.appkey, userId: 'alice', ttlMs: 60_000 }], pools),
        bearer,
        async (input, authorization) => {
          const answer = await postJson('/api/v1/tokens/otp', input, { authorization });
          expectWireAnswer(`otp ${describeInput(input)}`, answer);
        },
      ),
      { numRuns: FUZZ_RUNS },
    );
    const channel = fc.oneof(
      fc.constantFrom('news', 'a%20b', '%00', 'x'.repeat(200), '..', '%2F'),
      fc.string({ minLength: 1, maxLength: 10 }).map(encodeURIComponent),
    );
    await fc.assert(
      fc.asyncProperty(
        brokenRequest(
          [{ message: 'hi', qos: 1, guid: 'g1', notification: { title: 't', body: 'b', badge: 1 } }],
          pools,
        ),
        channel,
        bearer,
        async (input, name, authorization) => {
          const path = `/api/v1/apps/${SECURE_APP.appkey}/channels/${name}/messages`;
          expectWireAnswer(`publish ${name} ${describeInput(input)}`, await postJson(path, input, { authorization }));
        },
      ),
      { numRuns: FUZZ_RUNS },
    );

    await fc.assert(
      fc.asyncProperty(
        brokenRequest([{ name: 'notice', data: { kind: 'like', unread: 1 } }], pools),
        fc.oneof(channel, fc.constantFrom(otherLogin.ret.id as string, 'x'.repeat(61))),
        bearer,
        async (input, user, authorization) => {
          const path = `/api/v1/apps/${SECURE_APP.appkey}/users/${user}/events`;
          expectWireAnswer(
            `user event ${user} ${describeInput(input)}`,
            await postJson(path, input, { authorization }),
          );
        },
      ),
      { numRuns: FUZZ_RUNS },
    );

    await fc.assert(
      fc.asyncProperty(
        brokenRequest([{ pass: false, reason: 'blurred', submittedAt: 1_700_000_000_000 }], pools),
        fc.constantFrom('12345678', '%00', 'x'.repeat(100), '..'),
        bearer,
        async (input, member, authorization) => {
          const path = `/api/v1/apps/${SECURE_APP.appkey}/certifications/${member}/review`;
          expectWireAnswer(`review ${member} ${describeInput(input)}`, await postJson(path, input, { authorization }));
        },
      ),
      { numRuns: FUZZ_RUNS },
    );

    await fc.assert(
      fc.asyncProperty(
        brokenRequest([{ paid: false, reason: 'wrong account' }], pools),
        fc.constantFrom('12345678', '%00', 'x'.repeat(100), '..'),
        bearer,
        async (input, id, authorization) => {
          const path = `/api/v1/apps/${SECURE_APP.appkey}/withdrawals/${id}/review`;
          expectWireAnswer(`withdrawal ${id} ${describeInput(input)}`, await postJson(path, input, { authorization }));
        },
      ),
      { numRuns: FUZZ_RUNS },
    );

    await fc.assert(
      fc.asyncProperty(
        brokenRequest([{ paid: true, reference: 'T2026', reason: 'timed out' }], pools),
        fc.constantFrom('12345678', '%00', 'x'.repeat(100), '..'),
        bearer,
        async (input, id, authorization) => {
          const path = `/api/v1/apps/${SECURE_APP.appkey}/recharges/${id}/review`;
          expectWireAnswer(`recharge ${id} ${describeInput(input)}`, await postJson(path, input, { authorization }));
        },
      ),
      { numRuns: FUZZ_RUNS },
    );

    await fc.assert(
      fc.asyncProperty(
        brokenRequest([{ pass: false, reason: 'blurred icon', submittedAt: 1_700_000_000_000 }], pools),
        fc.constantFrom('12345678', '%00', 'x'.repeat(100), '..'),
        bearer,
        async (input, id, authorization) => {
          const path = `/api/v1/apps/${SECURE_APP.appkey}/shops/${id}/review`;
          expectWireAnswer(`shop ${id} ${describeInput(input)}`, await postJson(path, input, { authorization }));
        },
      ),
      { numRuns: FUZZ_RUNS },
    );

    await fc.assert(
      fc.asyncProperty(
        brokenRequest([{ decision: 'reject', reason: 'blurred photos' }], pools),
        fc.constantFrom('12345678', '%00', 'x'.repeat(100), '..'),
        bearer,
        async (input, id, authorization) => {
          const path = `/api/v1/apps/${SECURE_APP.appkey}/products/${id}/review`;
          expectWireAnswer(`product ${id} ${describeInput(input)}`, await postJson(path, input, { authorization }));
        },
      ),
      { numRuns: FUZZ_RUNS },
    );

    await fc.assert(
      fc.asyncProperty(
        brokenRequest([{ decision: 'uphold', reason: 'fake label' }], pools),
        fc.constantFrom('12345678', '%00', 'x'.repeat(100), '..'),
        bearer,
        async (input, id, authorization) => {
          const path = `/api/v1/apps/${SECURE_APP.appkey}/claims/${id}/decide`;
          expectWireAnswer(`claim ${id} ${describeInput(input)}`, await postJson(path, input, { authorization }));
        },
      ),
      { numRuns: FUZZ_RUNS },
    );

    await fc.assert(
      fc.asyncProperty(
        brokenRequest(
          [
            { name: 'Tech', position: 1, isDefault: true, title: 'Walks', intro: '', img: '' },
            { title: 'Sale', img: 'https://x/a.png', url: 'shop/index', position: 'shop', sort: 1, ends_at: null },
          ],
          pools,
        ),
        fc.constantFrom('', '/12345678', '/%00', `/${'x'.repeat(100)}`),
        fc.constantFrom('article-channels', 'circle-topics', 'product-categories', 'ads'),
        bearer,
        async (input, id, catalog, authorization) => {
          const path = `/api/v1/apps/${SECURE_APP.appkey}/${catalog}${id}`;
          const answer = await (id === ''
            ? postJson(path, input, { authorization })
            : patchJson(path, input, { authorization }));
          expectWireAnswer(`channel ${id} ${describeInput(input)}`, answer);
        },
      ),
      { numRuns: FUZZ_RUNS },
    );

    await fc.assert(
      fc.asyncProperty(
        brokenRequest([{ title: 'Holiday shipping', content: 'Orders ship on the 8th.', pinned: true }], pools),
        fc.constantFrom('', '/12345678', '/%00', `/${'x'.repeat(100)}`),
        bearer,
        async (input, id, authorization) => {
          const path = `/api/v1/apps/${SECURE_APP.appkey}/shop-announcements${id}`;
          expectWireAnswer(
            `announcement ${id} ${describeInput(input)}`,
            await postJson(path, input, { authorization }),
          );
        },
      ),
      { numRuns: FUZZ_RUNS },
    );

    // Bodies that are not JSON objects, or not JSON at all, on every route.
    const routes = [
      ...product.map(([path]) => `/index.php/api/${path}`),
      '/api/v1/tokens/otp',
      `/api/v1/apps/${SECURE_APP.appkey}/users/alice/events`,
      `/api/v1/apps/${SECURE_APP.appkey}/certifications/12345678/review`,
      `/api/v1/apps/${SECURE_APP.appkey}/withdrawals/12345678/review`,
      `/api/v1/apps/${SECURE_APP.appkey}/recharges/12345678/review`,
      `/api/v1/apps/${SECURE_APP.appkey}/shops/12345678/review`,
      `/api/v1/apps/${SECURE_APP.appkey}/products/12345678/review`,
      `/api/v1/apps/${SECURE_APP.appkey}/claims/12345678/decide`,
      `/api/v1/apps/${SECURE_APP.appkey}/product-categories`,
      `/api/v1/apps/${SECURE_APP.appkey}/reports/12345678/review`,
      `/api/v1/apps/${SECURE_APP.appkey}/article-channels`,
      `/api/v1/apps/${SECURE_APP.appkey}/circle-topics`,
      `/api/v1/apps/${SECURE_APP.appkey}/shop-announcements`,
      `/api/v1/apps/${SECURE_APP.appkey}/shop-announcements/12345678`,
    ];
    const raw = fc.oneof(
      fc.constantFrom('', '{', '[1,', 'null', '"text"', '{"a":1}{', '\u0000', '{"__proto__":{"x":1}}'),
      fc.string({ maxLength: 20 }),
    );
    const type = fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'image/png');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), raw, type, async (route, body, contentType) => {
        const res = await fetch(`${p.url}${route}`, { method: 'POST', headers: { 'content-type': contentType }, body });
        expectWireAnswer(`${route} ${contentType} ${JSON.stringify(body)}`, await answerOf(res));
      }),
      { numRuns: FUZZ_RUNS },
    );

    // The live media server's hooks (LIVE-9): `{code: 0}` or `{code: 403}`, or the wire's own refusal of a body.
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('publish', 'unpublish'),
        fc.oneof(
          raw,
          anyValue(pools).map((value) => JSON.stringify(value) ?? ''),
        ),
        type,
        async (hook, body, contentType) => {
          const res = await fetch(`${p.url}/index.php/api/live/hook/${hook}`, {
            method: 'POST',
            headers: { 'content-type': contentType },
            body,
          });
          const answer = await answerOf(res);
          const where = `live hook ${hook} ${contentType} ${JSON.stringify(body)}`;
          if (answer.status === 200 || answer.status === 403) {
            expect(answer.body, where).toEqual({ code: answer.status === 200 ? 0 : 403 });
          } else expectWireAnswer(where, answer);
        },
      ),
      { numRuns: FUZZ_RUNS },
    );

    // Paths into the upload storage: missing files, traversal, odd encodings.
    const stored = fc.oneof(
      fc.constantFrom('../../etc/passwd', '..%2F..%2Fetc%2Fpasswd', '%00', 'a/../../b', '.tmp/x', '', '%', '%zz'),
      fc.string({ maxLength: 16 }).map(encodeURIComponent),
    );
    await fc.assert(
      fc.asyncProperty(stored, async (path) => {
        const res = await fetch(`${p.url}${UPLOAD_PATH}/${path}`);
        const answer = await answerOf(res);
        expect(answer.status, path).toBeLessThan(500);
        expect([CODES.OK, 400, 403, 404], path).toContain(answer.status);
      }),
      { numRuns: FUZZ_RUNS },
    );
    // Any value at all as the whole body of a product call.
    await fc.assert(
      fc.asyncProperty(anyValue(pools), async (input) => {
        expectProductAnswer(`member/info ${describeInput(input)}`, await postJson('/index.php/api/member/info', input));
      }),
      { numRuns: FUZZ_RUNS },
    );

    // Upload forms broken anywhere: cut short, bytes changed, the boundary wrong or missing, other types. The form is
    // the product app's (its token's fields, a key of the member's, a PNG), as Node's FormData encodes it.
    const form = new FormData();
    for (const [field, value] of Object.entries(upload.fields as Record<string, string>)) form.append(field, value);
    form.append('key', `${upload.key_prefix as string}${'b'.repeat(32)}.png`);
    form.append('file', new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])], { type: 'image/png' }), 'a.png');
    const encoded = new Response(form);
    const formType = encoded.headers.get('content-type') ?? '';
    const formBytes = new Uint8Array(await encoded.arrayBuffer());
    const broken = fc.record({
      cut: fc.option(fc.nat(formBytes.length), { nil: undefined }),
      flips: fc.array(fc.tuple(fc.nat(formBytes.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 3 }),
      type: fc.constantFrom(
        formType,
        formType,
        'multipart/form-data',
        'multipart/form-data; boundary=',
        'multipart/form-data; boundary=other',
        `multipart/form-data; boundary=${'x'.repeat(300)}`,
        'text/plain',
        'application/json',
      ),
    });
    await fc.assert(
      fc.asyncProperty(broken, async ({ cut, flips, type }) => {
        const body = formBytes.slice(0, cut ?? formBytes.length);
        for (const [at, byte] of flips) if (at < body.length) body[at] = byte;
        const res = await fetch(`${p.url}${UPLOAD_PATH}`, { method: 'POST', headers: { 'content-type': type }, body });
        expectWireAnswer(`upload ${type} cut ${String(cut)} flips ${JSON.stringify(flips)}`, await answerOf(res));
      }),
      { numRuns: FUZZ_RUNS },
    );

    // Still serving: a fresh login works.
    p.advance(60_000);
    await p.call('member/send_code', { phone: PHONE });
    const again = await p.call('member/login', { phone: PHONE, code: p.sms.lastCode(PHONE), agree: true });
    expect(again.ret.id).toBe(id);
  }, 120_000);
});
