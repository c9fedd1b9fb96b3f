import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { verifyOtp } from '../src/auth/otp.js';
import { PRODUCT_ADDRESS_LIMITS, PRODUCT_ADDRESS_OVERALL, PRODUCT_ADDRESS_SEARCH } from '../src/api/product/limits.js';
import { MEMBER_LIMITS } from '../src/members/service.js';
import { createDevSmsProvider } from '../src/members/sms.js';
import { createParleyServer } from '../src/server.js';
import { DEMO_APP } from '../src/config.js';
import { SECURE_APP, defer, testConfig } from './helpers.js';
import { PHONE, startProductServer } from './product-support.js';
import { redisPrefix, redisUrl } from './redis-support.js';

/** A logger at info level whose JSON lines the test reads. */
function memoryLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { logger, lines };
}

const SMS_LOG = 'sms code (development provider, not sent)';

/** Asks for a code for `phone` as a proxy forwarding for `forwardedFor`. */
function sendFrom(url: string, phone: string, forwardedFor: string): Promise<Record<string, unknown>> {
  return fetch(`${url}/index.php/api/member/send_code`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    body: JSON.stringify({ phone }),
  }).then((res) => res.json() as Promise<Record<string, unknown>>);
}

describe('product API: login by SMS code', () => {
  it('sends a code and refuses another within 60 s ("do not operate frequently")', async () => {
    const p = await startProductServer();
    expect(await p.call('member/send_code', { phone: PHONE })).toMatchObject({ status: 200, ret: true });
    const first = p.sms.lastCode(PHONE);
    expect(first).toMatch(/^\d{6}$/);
    p.advance(MEMBER_LIMITS.resendMs - 1);
    expect(await p.call('member/send_code', { phone: PHONE })).toMatchObject({
      err: 'do not operate frequently',
      code: 'too_frequent',
    });
    p.advance(1);
    expect(await p.call('member/send_code', { phone: PHONE })).toMatchObject({ ret: true });
  });

  it('refuses a phone that is not a mainland mobile number', async () => {
    const p = await startProductServer();
    for (const phone of ['11800138000', '10800138000', '1380013800', '138001380001', 'abc', 13800138000]) {
      expect(await p.call('member/send_code', { phone })).toMatchObject({ code: 'bad_phone' });
    }
    expect(await p.call('member/login', { phone: '1234', code: '123456', agree: true })).toMatchObject({
      code: 'bad_phone',
    });
  });

  it('logs in with the right code: token, user and an otp for that user id', async () => {
    const p = await startProductServer();
    await p.call('member/send_code', { phone: PHONE });
    const answer = await p.call('member/login', { phone: PHONE, code: p.sms.lastCode(PHONE), agree: true });
    expect(answer.ret).toMatchObject({ token: expect.any(String), id: expect.any(String), username: 'user8000' });
    expect(answer.ret.phone).toBe('138****8000');
    expect(
      verifyOtp({ secretKey: SECURE_APP.secretKey, token: answer.otp, userId: answer.ret.id, now: p.now() }),
    ).toEqual({ ok: true });
    // The code is used up, and the same phone logs in as the same member next time.
    expect(await p.call('member/login', { phone: PHONE, code: p.sms.lastCode(PHONE), agree: true })).toMatchObject({
      code: 'code_wrong',
    });
    p.advance(MEMBER_LIMITS.resendMs);
    await p.call('member/send_code', { phone: PHONE });
    const again = await p.call('member/login', { phone: PHONE, code: p.sms.lastCode(PHONE), agree: true });
    expect(again.ret.id).toBe(answer.ret.id);
  });

  it('refuses a wrong code, and uses the code up after five attempts', async () => {
    const p = await startProductServer();
    await p.call('member/send_code', { phone: PHONE });
    const right = p.sms.lastCode(PHONE) ?? '';
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < MEMBER_LIMITS.maxCodeAttempts; i++) {
      expect(await p.call('member/login', { phone: PHONE, code: wrong, agree: true })).toMatchObject({
        err: 'incorrect verification code',
        code: 'code_wrong',
      });
    }
    expect(await p.call('member/login', { phone: PHONE, code: right, agree: true })).toMatchObject({
      code: 'code_wrong',
    });
  });

  it('MEM-1: a used-up code does not lift the 60 s resend limit', async () => {
    const p = await startProductServer();
    await p.call('member/send_code', { phone: PHONE });
    const wrong = p.sms.lastCode(PHONE) === '000000' ? '111111' : '000000';
    for (let i = 0; i < MEMBER_LIMITS.maxCodeAttempts; i++) {
      await p.call('member/login', { phone: PHONE, code: wrong, agree: true });
    }
    expect(await p.call('member/send_code', { phone: PHONE })).toMatchObject({ code: 'too_frequent' });
    p.advance(MEMBER_LIMITS.resendMs);
    expect(await p.call('member/send_code', { phone: PHONE })).toMatchObject({ ret: true });
    expect(await p.call('member/login', { phone: PHONE, code: p.sms.lastCode(PHONE), agree: true })).toMatchObject({
      ret: { token: expect.any(String) },
    });
  });

  it('MEM-1: guesses sent at once share the five attempts', async () => {
    const p = await startProductServer();
    await p.call('member/send_code', { phone: PHONE });
    const right = p.sms.lastCode(PHONE) ?? '';
    const wrongs = Array.from({ length: 15 }, (_, i) => String((Number(right) + 1 + i) % 1_000_000).padStart(6, '0'));
    const answers = await Promise.all(
      wrongs.map((code) => p.call('member/login', { phone: PHONE, code, agree: true })),
    );
    expect(answers.every((answer) => answer.code === 'code_wrong')).toBe(true);
    expect(await p.call('member/login', { phone: PHONE, code: right, agree: true })).toMatchObject({
      code: 'code_wrong',
    });
  });

  it('MEM-2: a phone gets at most ten codes a day, counted from the first', async () => {
    const p = await startProductServer();
    for (let i = 0; i < MEMBER_LIMITS.maxCodesPerWindow; i++) {
      expect(await p.call('member/send_code', { phone: PHONE })).toMatchObject({ ret: true });
      p.advance(MEMBER_LIMITS.resendMs);
    }
    expect(await p.call('member/send_code', { phone: PHONE })).toMatchObject({
      err: 'do not operate frequently',
      code: 'too_frequent',
    });
    // Another phone has its own quota.
    expect(await p.call('member/send_code', { phone: '13900139000' })).toMatchObject({ ret: true });
    p.advance(MEMBER_LIMITS.codeWindowMs - MEMBER_LIMITS.maxCodesPerWindow * MEMBER_LIMITS.resendMs - 1);
    expect(await p.call('member/send_code', { phone: PHONE })).toMatchObject({ code: 'too_frequent' });
    p.advance(1);
    expect(await p.call('member/send_code', { phone: PHONE })).toMatchObject({ ret: true });
    expect(await p.call('member/login', { phone: PHONE, code: p.sms.lastCode(PHONE), agree: true })).toMatchObject({
      ret: { token: expect.any(String) },
    });
  });

  it('MEM-3: one address gets ten codes at once, then five a minute, whatever the phones', async () => {
    const p = await startProductServer();
    const phone = (i: number) => `139${String(i).padStart(8, '0')}`;
    for (let i = 0; i < PRODUCT_ADDRESS_LIMITS['member/send_code'].burst; i++) {
      expect(await p.call('member/send_code', { phone: phone(i) })).toMatchObject({ ret: true });
    }
    expect(await p.call('member/send_code', { phone: phone(99) })).toMatchObject({
      err: 'do not operate frequently',
      code: 'too_frequent',
    });
    p.advance(60_000 / PRODUCT_ADDRESS_LIMITS['member/send_code'].perMinute);
    expect(await p.call('member/send_code', { phone: phone(99) })).toMatchObject({ ret: true });
    // Logins have a budget of their own.
    expect(
      await p.call('member/login', { phone: phone(0), code: p.sms.lastCode(phone(0)), agree: true }),
    ).toMatchObject({ ret: { token: expect.any(String) } });
  });

  it('MEM-12: one address gets 600 calls of any paths at once, then 1 200 a minute; another address its own', async () => {
    const p = await startProductServer(undefined, { trustProxy: true });
    const from = (address: string, path: string) =>
      fetch(`${p.url}/index.php/api/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body: '{}',
      }).then((res) => res.json() as Promise<Record<string, unknown>>);
    const paths = ['index/config', 'article/list', 'video/lists', 'ad/list'];
    for (let i = 0; i < PRODUCT_ADDRESS_OVERALL.burst; i++) {
      expect(await from('203.0.113.9', paths[i % paths.length]!)).not.toMatchObject({ code: 'too_frequent' });
    }
    expect(await from('203.0.113.9', 'article/list')).toMatchObject({
      err: 'do not operate frequently',
      code: 'too_frequent',
    });
    // A path's own budget is not the overall one's: the overall budget refuses send_code too.
    expect(await sendFrom(p.url, PHONE, '203.0.113.9')).toMatchObject({ code: 'too_frequent' });
    expect(await from('203.0.113.10', 'article/list')).toMatchObject({ ret: expect.anything() });
    p.advance(60_000 / PRODUCT_ADDRESS_OVERALL.perMinute);
    expect(await from('203.0.113.9', 'article/list')).toMatchObject({ ret: expect.anything() });
    expect(await from('203.0.113.9', 'article/list')).toMatchObject({ code: 'too_frequent' });
  });

  it('MEM-12: one address gets 30 searches at once, then 60 a minute, beside its reads', async () => {
    const p = await startProductServer();
    for (let i = 0; i < PRODUCT_ADDRESS_SEARCH.burst; i++) {
      const path = i % 2 === 0 ? 'article/list' : 'index/city_search';
      expect(await p.call(path, { keyword: `word ${i}` })).not.toMatchObject({ code: 'too_frequent' });
    }
    expect(await p.call('article/list', { keyword: 'one more' })).toMatchObject({ code: 'too_frequent' });
    // Reads without a keyword (or with a blank one) go on.
    expect(await p.call('article/list', {})).toMatchObject({ ret: expect.anything() });
    expect(await p.call('article/list', { keyword: '  ' })).toMatchObject({ ret: expect.anything() });
    p.advance(60_000 / PRODUCT_ADDRESS_SEARCH.perMinute);
    expect(await p.call('article/list', { keyword: 'again' })).toMatchObject({ ret: expect.anything() });
  });

  it('MEM-3: behind a trusted proxy, the forwarded address is the one limited', async () => {
    const burst = PRODUCT_ADDRESS_LIMITS['member/send_code'].burst;
    const phone = (i: number) => `139${String(i).padStart(8, '0')}`;
    const behind = await startProductServer(undefined, { trustProxy: true });
    for (let i = 0; i <= burst; i++) {
      expect(await sendFrom(behind.url, phone(i), `203.0.113.${i}`)).toMatchObject({ ret: true });
    }
    // One trusted hop: the address the proxy saw is the one counted, not what the client claimed before it.
    const oneHop = await startProductServer(undefined, { trustProxy: 1 });
    for (let i = 0; i <= burst; i++) {
      expect(await sendFrom(oneHop.url, phone(i), `198.51.100.7, 203.0.113.${i}`)).toMatchObject({ ret: true });
    }
    for (let i = 0; i < burst; i++) await sendFrom(oneHop.url, phone(50 + i), `203.0.113.${i}, 203.0.113.99`);
    expect(await sendFrom(oneHop.url, phone(99), '203.0.113.200, 203.0.113.99')).toMatchObject({
      code: 'too_frequent',
    });
    // Not trusted: every caller is the proxy's one address, whatever it forwards.
    const direct = await startProductServer();
    for (let i = 0; i < burst; i++) await sendFrom(direct.url, phone(i), `203.0.113.${i}`);
    expect(await sendFrom(direct.url, phone(burst), '203.0.113.200')).toMatchObject({ code: 'too_frequent' });
  });

  it('MEM-4: the addresses of one IPv6 /64 share a budget', async () => {
    const burst = PRODUCT_ADDRESS_LIMITS['member/send_code'].burst;
    const phone = (i: number) => `139${String(i).padStart(8, '0')}`;
    const p = await startProductServer(undefined, { trustProxy: true });
    for (let i = 0; i < burst; i++) {
      expect(await sendFrom(p.url, phone(i), `2001:db8:1:2::${i.toString(16)}`)).toMatchObject({ ret: true });
    }
    expect(await sendFrom(p.url, phone(98), '2001:db8:1:2:ffff::1')).toMatchObject({ code: 'too_frequent' });
    expect(await sendFrom(p.url, phone(99), '2001:db8:1:3::1')).toMatchObject({ ret: true });
  });

  it.runIf(Boolean(redisUrl))('MEM-4: nodes sharing Redis share an address budget', async () => {
    const burst = PRODUCT_ADDRESS_LIMITS['member/send_code'].burst;
    const phone = (i: number) => `139${String(i).padStart(8, '0')}`;
    const shared = { trustProxy: true, redisUrl, redisPrefix: redisPrefix() };
    const nodes = [await startProductServer(undefined, shared), await startProductServer(undefined, shared)];
    for (let i = 0; i < burst; i++) {
      const node = nodes[i % 2] as (typeof nodes)[number];
      expect(await sendFrom(node.url, phone(i), '203.0.113.7')).toMatchObject({ ret: true });
    }
    for (const node of nodes) {
      expect(await sendFrom(node.url, phone(99), '203.0.113.7')).toMatchObject({ code: 'too_frequent' });
    }
    expect(await sendFrom(nodes[1]?.url as string, phone(99), '203.0.113.8')).toMatchObject({ ret: true });
  });

  it('MEM-1: two logins with the right code at once: one gets in', async () => {
    const p = await startProductServer();
    await p.call('member/send_code', { phone: PHONE });
    const code = p.sms.lastCode(PHONE);
    const answers = await Promise.all([1, 2].map(() => p.call('member/login', { phone: PHONE, code, agree: true })));
    expect(answers.filter((answer) => answer.ret !== undefined)).toHaveLength(1);
    expect(answers.filter((answer) => answer.code === 'code_wrong')).toHaveLength(1);
  });

  it('refuses an expired code', async () => {
    const p = await startProductServer();
    await p.call('member/send_code', { phone: PHONE });
    p.advance(MEMBER_LIMITS.codeTtlMs + 1);
    expect(await p.call('member/login', { phone: PHONE, code: p.sms.lastCode(PHONE), agree: true })).toMatchObject({
      code: 'code_wrong',
    });
  });

  it('requires agreement to the user and privacy agreements', async () => {
    const p = await startProductServer();
    await p.call('member/send_code', { phone: PHONE });
    for (const agree of [undefined, false, 'true']) {
      expect(await p.call('member/login', { phone: PHONE, code: p.sms.lastCode(PHONE), agree })).toMatchObject({
        code: 'agreement_required',
      });
    }
  });

  it('answers 400 {code, content} to a body that is not a JSON object', async () => {
    const p = await startProductServer();
    expect(await p.call('member/send_code', [PHONE])).toMatchObject({ status: 400, code: 400 });
  });
});

describe('product API: member/info', () => {
  async function loggedIn() {
    const p = await startProductServer();
    await p.call('member/send_code', { phone: PHONE });
    const login = await p.call('member/login', { phone: PHONE, code: p.sms.lastCode(PHONE), agree: true });
    return { p, token: login.ret.token as string, id: login.ret.id as string };
  }

  it('returns the user with member_notify_badge and a fresh otp for a valid token', async () => {
    const { p, token, id } = await loggedIn();
    const info = await p.call('member/info', { token, app: {}, i18n: { locale: 'en' } });
    expect(info.ret).toMatchObject({ id, member_notify_badge: 0 });
    expect(verifyOtp({ secretKey: SECURE_APP.secretKey, token: info.otp, userId: id, now: p.now() })).toEqual({
      ok: true,
    });
  });

  it('answers err for a missing, unknown or expired token, and after logout', async () => {
    const { p, token } = await loggedIn();
    for (const body of [{}, { token: 'nope' }, { token: 42 }]) {
      expect(await p.call('member/info', body)).toMatchObject({ err: 'account expired', code: 'token_invalid' });
    }
    p.advance(MEMBER_LIMITS.tokenTtlMs);
    expect(await p.call('member/info', { token })).toMatchObject({ code: 'token_invalid' });

    const fresh = await loggedIn();
    await fresh.p.call('member/logout', { token: fresh.token });
    expect(await fresh.p.call('member/info', { token: fresh.token })).toMatchObject({ code: 'token_invalid' });
  });

  it('shows another member profile to a logged-in member only', async () => {
    const { p, token, id } = await loggedIn();
    expect(await p.call('member/profile', { token, id })).toMatchObject({ ret: { id, username: 'user8000', img: '' } });
    expect(await p.call('member/profile', { id })).toMatchObject({ code: 'token_invalid' });
    expect(await p.call('member/profile', { token, id: 'nobody' })).toMatchObject({ code: 'user_missing' });
  });
});

describe('the development SMS provider', () => {
  it('writes each code to the log at info level and keeps the last one per phone', async () => {
    const { logger, lines } = memoryLogger();
    const sms = createDevSmsProvider(logger);
    await sms.send({ phone: PHONE, code: '123456' });
    await sms.send({ phone: PHONE, code: '654321' });
    await sms.send({ phone: '+44 7700900123', code: '000111' });
    expect(lines.filter((l) => l['msg'] === SMS_LOG)).toEqual([
      expect.objectContaining({ level: 30, phone: PHONE, code: '123456' }),
      expect.objectContaining({ level: 30, phone: PHONE, code: '654321' }),
      expect.objectContaining({ level: 30, phone: '+44 7700900123', code: '000111' }),
    ]);
    expect(sms.lastCode(PHONE)).toBe('654321');
    expect(sms.lastCode('13900139000')).toBeUndefined();
  });

  it('is what a server without its own provider uses: the logged code signs in', async () => {
    const { logger, lines } = memoryLogger();
    const server = createParleyServer(testConfig({ productAppkey: SECURE_APP.appkey }), { logger });
    defer(() => server.close());
    const { url } = await server.listen();
    const call = async (path: string, body: unknown) =>
      (await (
        await fetch(`${url}/index.php/api/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json()) as Record<string, unknown>;

    expect(await call('member/send_code', { phone: PHONE })).toMatchObject({ ret: true });
    const logged = lines.find((l) => l['msg'] === SMS_LOG);
    expect(logged).toMatchObject({ phone: PHONE, code: expect.stringMatching(/^\d{6}$/) });
    expect(await call('member/login', { phone: PHONE, code: logged?.['code'], agree: true })).toMatchObject({
      ret: { username: 'user8000' },
    });
  });

  it('is announced with a warning at start, as is an app on the public demo secret', () => {
    const { logger, lines } = memoryLogger();
    const server = createParleyServer(testConfig({ apps: [DEMO_APP, SECURE_APP] }), { logger });
    defer(() => server.close());
    const about = (line: Record<string, unknown>) =>
      line['level'] === 40 && /demo secret|SMS provider/.test(String(line['msg']));
    expect(lines.filter(about)).toEqual([
      expect.objectContaining({ appkey: DEMO_APP.appkey, msg: expect.stringContaining('public demo secret key') }),
      expect.objectContaining({ msg: expect.stringContaining('development SMS provider') }),
    ]);
    const quiet = memoryLogger();
    const provided = createParleyServer(testConfig({ productAppkey: SECURE_APP.appkey }), {
      logger: quiet.logger,
      sms: createDevSmsProvider(quiet.logger),
    });
    defer(() => provided.close());
    expect(quiet.lines.filter(about)).toEqual([]);
  });
});
