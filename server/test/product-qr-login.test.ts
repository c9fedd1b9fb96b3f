import { describe, expect, it } from 'vitest';
import { QR_LOGIN_LIMITS, describeDevice } from '../src/members/qr-login.js';
import { type ProductServer, productServer, signIn } from './product-support.js';

const CHROME_ON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** Asks for a code as a desktop browser would. */
async function showCode(p: ProductServer): Promise<{ ticket: string; key: string; expires_at: number }> {
  const res = await fetch(`${p.url}/index.php/api/member/qr_login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': CHROME_ON_WINDOWS },
    body: '{"agree":true}',
  });
  return ((await res.json()) as { ret: { ticket: string; key: string; expires_at: number } }).ret;
}

const poll = (p: ProductServer, code: { ticket: string; key: string }) =>
  p.call('member/qr_login_status', { ticket: code.ticket, key: code.key });

describe('sign-in by QR code: member/qr_login and the calls around it (user/scan-login)', () => {
  it('a phone signed in scans and confirms; the device gets a session of its own, once', async () => {
    const p = await productServer();
    const phone = await signIn(p);
    const code = await showCode(p);
    expect(code).toEqual({
      ticket: expect.stringMatching(/^[\w-]{32}$/),
      key: expect.stringMatching(/^[\w-]{32}$/),
      expires_at: p.now() + QR_LOGIN_LIMITS.ticketTtlMs,
    });
    expect(code.key).not.toBe(code.ticket);
    expect((await poll(p, code)).ret).toEqual({ status: 'waiting', expires_at: code.expires_at });

    p.advance(5_000);
    const scanned = await p.call('member/qr_login_scan', { token: phone.token, ticket: code.ticket });
    expect(scanned.ret).toEqual({
      device: 'Chrome on Windows',
      address: expect.stringMatching(/127\.0\.0\.1/),
      created_at: p.now() - 5_000,
      // Scanning gives the member the whole time again to confirm.
      expires_at: p.now() + QR_LOGIN_LIMITS.ticketTtlMs,
    });
    // The device shows whose phone scanned it.
    expect((await poll(p, code)).ret).toEqual({
      status: 'scanned',
      expires_at: p.now() + QR_LOGIN_LIMITS.ticketTtlMs,
      user: { username: 'user8000', img: '' },
    });

    expect(await p.call('member/qr_login_confirm', { token: phone.token, ticket: code.ticket })).toMatchObject({
      ret: true,
    });
    const confirmed = await poll(p, code);
    expect(confirmed.ret).toMatchObject({
      status: 'confirmed',
      user: { id: phone.id, username: 'user8000', phone: '138****8000', token: expect.any(String) },
    });
    expect(confirmed.otp).toEqual(expect.any(String));
    const token = confirmed.ret.user.token as string;
    expect(token).not.toBe(phone.token);
    expect((await p.call('member/info', { token })).ret).toMatchObject({ id: phone.id });
    // The session was handed out once: later polls find nothing, and both devices stay signed in.
    expect((await poll(p, code)).ret).toEqual({ status: 'expired' });
    expect((await p.call('member/info', { token: phone.token })).ret).toMatchObject({ id: phone.id });
    // Signing the device out leaves the phone's session alone.
    await p.call('member/logout', { token });
    expect(await p.call('member/info', { token })).toMatchObject({ code: 'token_invalid' });
    expect((await p.call('member/info', { token: phone.token })).ret).toMatchObject({ id: phone.id });
  });

  it('only the device holding the key learns the state: the code alone gets nothing', async () => {
    const p = await productServer();
    const phone = await signIn(p);
    const code = await showCode(p);
    await p.call('member/qr_login_scan', { token: phone.token, ticket: code.ticket });
    await p.call('member/qr_login_confirm', { token: phone.token, ticket: code.ticket });
    const other = await showCode(p);
    for (const body of [
      { ticket: code.ticket },
      { ticket: code.ticket, key: other.key },
      { ticket: code.ticket, key: code.ticket },
      { ticket: code.ticket, key: 42 },
      { ticket: 'short', key: code.key },
      {},
    ]) {
      expect(await p.call('member/qr_login_status', body), JSON.stringify(body)).toEqual({
        status: 200,
        err: 'parameter error',
        code: 'bad_params',
      });
    }
    // The right key still gets the session after all those tries.
    expect((await poll(p, code)).ret).toMatchObject({ status: 'confirmed', user: { id: phone.id } });
  });

  it('a code scanned by one member is not another’s to scan or confirm', async () => {
    const p = await productServer();
    const alice = await signIn(p);
    const bob = await signIn(p, '13900139000');
    const code = await showCode(p);
    expect((await p.call('member/qr_login_scan', { token: alice.token, ticket: code.ticket })).ret).toBeDefined();
    expect(await p.call('member/qr_login_scan', { token: bob.token, ticket: code.ticket })).toEqual({
      status: 200,
      err: 'someone else scanned this QR code',
      code: 'qr_taken',
    });
    for (const path of ['member/qr_login_confirm', 'member/qr_login_cancel']) {
      expect(await p.call(path, { token: bob.token, ticket: code.ticket }), path).toMatchObject({ code: 'qr_invalid' });
    }
    // Alice opening the page again is still her scan.
    expect((await p.call('member/qr_login_scan', { token: alice.token, ticket: code.ticket })).ret).toBeDefined();
    expect((await poll(p, code)).ret).toMatchObject({ status: 'scanned', user: { username: 'user8000' } });
  });

  it('a cancelled sign-in stays cancelled; the device is told so', async () => {
    const p = await productServer();
    const phone = await signIn(p);
    const code = await showCode(p);
    // Nothing to confirm before it is scanned.
    expect(await p.call('member/qr_login_confirm', { token: phone.token, ticket: code.ticket })).toMatchObject({
      code: 'qr_invalid',
    });
    await p.call('member/qr_login_scan', { token: phone.token, ticket: code.ticket });
    expect((await p.call('member/qr_login_cancel', { token: phone.token, ticket: code.ticket })).ret).toBe(true);
    expect((await poll(p, code)).ret).toEqual({ status: 'cancelled' });
    for (const path of ['member/qr_login_confirm', 'member/qr_login_cancel', 'member/qr_login_scan']) {
      expect(await p.call(path, { token: phone.token, ticket: code.ticket }), path).toEqual({
        status: 200,
        err: 'the QR code has expired: refresh it on the other device',
        code: 'qr_invalid',
      });
    }
    expect((await poll(p, code)).ret).toEqual({ status: 'cancelled' });
  });

  it('a code expires unscanned after two minutes, and two minutes after its scan', async () => {
    const p = await productServer();
    const phone = await signIn(p);
    const stale = await showCode(p);
    const code = await showCode(p);
    p.advance(QR_LOGIN_LIMITS.ticketTtlMs - 1_000);
    await p.call('member/qr_login_scan', { token: phone.token, ticket: code.ticket });
    p.advance(1_000);
    expect((await poll(p, stale)).ret).toEqual({ status: 'expired' });
    expect(await p.call('member/qr_login_scan', { token: phone.token, ticket: stale.ticket })).toMatchObject({
      code: 'qr_invalid',
    });
    // The scanned one has its two minutes from the scan.
    p.advance(QR_LOGIN_LIMITS.ticketTtlMs - 2_000);
    expect((await poll(p, code)).ret).toMatchObject({ status: 'scanned' });
    p.advance(1_000);
    expect((await poll(p, code)).ret).toEqual({ status: 'expired' });
    expect(await p.call('member/qr_login_confirm', { token: phone.token, ticket: code.ticket })).toMatchObject({
      code: 'qr_invalid',
    });
  });

  it('scanning needs a signed-in member, and a ticket as the code carries it', async () => {
    const p = await productServer();
    const phone = await signIn(p);
    const code = await showCode(p);
    for (const token of [undefined, '', 'nope']) {
      expect(await p.call('member/qr_login_scan', { token, ticket: code.ticket })).toMatchObject({
        code: 'token_invalid',
      });
    }
    for (const ticket of [undefined, '', 42, 'x'.repeat(33), 'ä'.repeat(32), { ticket: code.ticket }]) {
      expect(
        await p.call('member/qr_login_scan', { token: phone.token, ticket }),
        JSON.stringify(ticket),
      ).toMatchObject({
        code: 'qr_invalid',
      });
    }
    expect((await poll(p, code)).ret).toMatchObject({ status: 'waiting' });
  });

  it('a member who cancels their account before the device polls gives it no session', async () => {
    const p = await productServer();
    const phone = await signIn(p);
    const code = await showCode(p);
    await p.call('member/qr_login_scan', { token: phone.token, ticket: code.ticket });
    await p.call('member/qr_login_confirm', { token: phone.token, ticket: code.ticket });
    expect((await p.call('member/out', { token: phone.token, reason: 'bye', agree: true })).ret).toBe(true);
    expect((await poll(p, code)).ret).toEqual({ status: 'expired' });
  });

  it('a code needs the user and privacy agreements, as a code login does (spec §5)', async () => {
    const p = await productServer();
    for (const body of [{}, { agree: false }, { agree: 'true' }, { agree: 1 }]) {
      expect(await p.call('member/qr_login', body), JSON.stringify(body)).toMatchObject({
        err: 'please agree to the user and privacy agreements',
        code: 'agreement_required',
      });
    }
    expect((await p.call('member/qr_login', { agree: true })).ret).toMatchObject({ ticket: expect.any(String) });
  });

  it('MEM-3: one address asks for at most 30 codes at once, then 30 a minute', async () => {
    const p = await productServer();
    const answers = [];
    for (let i = 0; i < 31; i++) answers.push(await p.call('member/qr_login', { agree: true }));
    expect(answers.slice(0, 30).every((a) => typeof a.ret?.ticket === 'string')).toBe(true);
    expect(answers[30]).toMatchObject({ code: 'too_frequent' });
    p.advance(2_000);
    expect((await p.call('member/qr_login', { agree: true })).ret).toMatchObject({ ticket: expect.any(String) });
  });
});

describe('describeDevice: what the phone shows of the asking device', () => {
  it('names the browser and the system of common user agents', () => {
    const cases: [string, string][] = [
      [CHROME_ON_WINDOWS, 'Chrome on Windows'],
      [
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
        'Safari on macOS',
      ],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0 Mobile/15E148 Safari/604.1',
        'Chrome on iOS',
      ],
      ['Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', 'Firefox on Linux'],
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
        'Edge on Windows',
      ],
      [
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
        'Chrome on Android',
      ],
      [
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
        'Chrome on Linux',
      ],
      ['curl/8.5.0', 'curl/8.5.0'],
      ['\u0000evil\u202etxt', 'eviltxt'],
      ['x'.repeat(500), 'x'.repeat(QR_LOGIN_LIMITS.deviceMaxLength)],
    ];
    for (const [agent, device] of cases) expect(describeDevice(agent), agent).toBe(device);
    expect(describeDevice(undefined)).toBe('');
  });
});
