import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHttp } from '../src/api/index.js';
import { createAppRegistry } from '../src/auth/apps.js';
import { verifyOtp } from '../src/auth/otp.js';
import { silentLogger } from '../src/logger.js';
import { MESSAGES } from '../src/protocol.js';
import { SECURE_APP, defer, startServer, tempDir } from './helpers.js';

const otpRequest = (url: string, body: unknown, secret: string | null = SECURE_APP.secretKey) =>
  fetch(`${url}/api/v1/tokens/otp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(secret !== null ? { authorization: `Bearer ${secret}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('http', () => {
  it('reports health', async () => {
    const { url } = await startServer();
    const res = await fetch(`${url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('answers 503 on /health once shutting down', async () => {
    let shuttingDown = false;
    const app = createHttp({
      apps: createAppRegistry([]),
      appDir: join(tempDir(), 'missing'),
      logger: silentLogger(),
      now: Date.now,
      isShuttingDown: () => shuttingDown,
    });
    defer(() => app.close());
    expect((await app.inject({ url: '/health' })).statusCode).toBe(200);
    shuttingDown = true;
    const res = await app.inject({ url: '/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'shutting-down' });
  });

  it('serves a placeholder at /h5/ when the app is not built, and redirects / there', async () => {
    const { url } = await startServer({ appDir: join(tempDir(), 'missing') });
    const page = await fetch(`${url}/h5/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toContain('npm run build:app');
    const root = await fetch(`${url}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/h5/');
  });

  it('serves the built app at /h5/', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>built app</title>');
    writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
    const { url } = await startServer({ appDir: dir });
    expect(await (await fetch(`${url}/h5/`)).text()).toContain('built app');
    expect((await fetch(`${url}/h5/assets/app.js`)).status).toBe(200);
    expect((await fetch(`${url}/h5/../package.json`)).status).toBe(404);
  });

  it('issues an otp to a caller holding the secret key', async () => {
    const { url } = await startServer();
    const res = await otpRequest(url, { appkey: SECURE_APP.appkey, userId: 'alice', ttlMs: 60_000 });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { code: number; content: { otp: string; expiresAt: number } };
    expect(body.code).toBe(200);
    expect(body.content.expiresAt).toBeGreaterThan(Date.now());
    expect(verifyOtp({ secretKey: SECURE_APP.secretKey, token: body.content.otp, userId: 'alice' })).toEqual({
      ok: true,
    });
  });

  it('refuses a wrong or missing secret key with 401', async () => {
    const { url } = await startServer();
    for (const secret of ['wrong', null, '', 'open-secret']) {
      const res = await otpRequest(url, { appkey: SECURE_APP.appkey, userId: 'alice' }, secret);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ code: 401, content: MESSAGES.noPermission });
    }
    const unknownApp = await otpRequest(url, { appkey: 'nope', userId: 'alice' });
    expect(unknownApp.status).toBe(401);
  });

  it('refuses a bad body with 400 in the wire shape', async () => {
    const { url } = await startServer();
    for (const body of [
      '{not json',
      { userId: 'alice' },
      { appkey: SECURE_APP.appkey },
      { appkey: SECURE_APP.appkey, userId: 'a', ttlMs: -5 },
    ]) {
      const res = await otpRequest(url, body);
      expect(res.status).toBe(400);
      const json = (await res.json()) as { code: number; content: unknown };
      expect(json.code).toBe(400);
      expect(typeof json.content).toBe('string');
    }
  });

  it('refuses a body or path holding the NUL character with 400, on every route', async () => {
    const { url } = await startServer();
    const nul = { code: 400, content: MESSAGES.nulCharacter };
    const otp = await otpRequest(url, { appkey: SECURE_APP.appkey, userId: 'a\u0000b' });
    expect(otp.status).toBe(400);
    expect(await otp.json()).toEqual(nul);
    const product = await fetch(`${url}/index.php/api/member/send_code`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone: '13800138000', extra: { deep: ['x\u0000'] } }),
    });
    expect(product.status).toBe(400);
    expect(await product.json()).toEqual(nul);
    const channel = await fetch(`${url}/api/v1/apps/${SECURE_APP.appkey}/channels/a%00b/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${SECURE_APP.secretKey}` },
      body: JSON.stringify({ message: 'hi' }),
    });
    expect(channel.status).toBe(400);
    expect(await channel.json()).toEqual(nul);
  });

  it('answers unknown routes with 404 in the wire shape', async () => {
    const { url } = await startServer();
    const res = await fetch(`${url}/api/v1/nothing`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: 404, content: 'Not found' });
  });
});
