/**
 * End-to-end fixtures: a real Parley server serving the built app, with a temp data dir and the development SMS
 * provider whose last codes the tests read; Debian's chromium driven by playwright-core (never a downloaded browser).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import {
  loadConfig,
  type CsConfig,
  type EpidemicConfig,
  type LiveConfig,
  type WeatherConfig,
} from '../server/src/config.js';
import { randomName } from '../server/src/uploads/keys.js';
import { silentLogger } from '../server/src/logger.js';
import { createDevSmsProvider, type DevSmsProvider } from '../server/src/members/sms.js';
import { createParleyServer, type ParleyServer } from '../server/src/server.js';

/** Where screenshots go (gitignored). */
export const SHOTS = fileURLToPath(new URL('../test-results/e2e/', import.meta.url));

const APP_DIR = fileURLToPath(new URL('../demo-app/dist', import.meta.url));

/** Flags for a sandboxed CI machine: no GPU, no background traffic, nothing that phones home. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A running server with its SMS outbox. */
export interface E2eServer {
  url: string;
  sms: DevSmsProvider;
  /** Moves the server's clock forward (it starts at the real time). */
  advance(ms: number): void;
  close(): Promise<void>;
}

/**
 * Starts the server on 127.0.0.1 on an ephemeral port with a temp data dir, serving the built app at `/h5/` (or the
 * pages in `appDir`), with the customer-service team `cs` when given; the weather's and the epidemic's providers are
 * off unless a test names its own stand-in.
 */
export async function startE2eServer(
  options: {
    appDir?: string;
    cs?: CsConfig;
    weather?: WeatherConfig;
    epidemic?: EpidemicConfig;
    live?: LiveConfig;
  } = {},
): Promise<E2eServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-e2e-'));
  const sms = createDevSmsProvider(silentLogger());
  const config = {
    ...loadConfig({}),
    port: 0,
    host: '127.0.0.1',
    dataDir,
    appDir: options.appDir ?? APP_DIR,
    logLevel: 'silent' as const,
    // The browser tests talk only to loopback: the outside providers are off unless a test names its own.
    weather: options.weather ?? { forecastUrl: '', geocodingUrl: '' },
    epidemic: options.epidemic ?? { url: '' },
    ...(options.cs ? { cs: options.cs } : {}),
    ...(options.live ? { live: options.live } : {}),
  };
  let offset = 0;
  const server: ParleyServer = createParleyServer(config, {
    logger: silentLogger(),
    sms,
    now: () => Date.now() + offset,
  });
  const { url } = await server.listen();
  return {
    url,
    sms,
    advance(ms) {
      offset += ms;
    },
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Launches chromium from /usr/bin/chromium. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
}

/** A phone's screen, and a desktop browser's. */
export const VIEWPORTS = { phone: { width: 390, height: 780 }, desktop: { width: 1280, height: 800 } } as const;

/** A phone-sized (or `viewport`) browser context in a language, collecting any dialog a page opens (none should). */
export async function phoneContext(
  browser: Browser,
  locale: string,
  viewport: { width: number; height: number } = VIEWPORTS.phone,
): Promise<{ context: BrowserContext; page: Page; dialogs: string[] }> {
  const context = await browser.newContext({ locale, viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return { context, page, dialogs };
}

/** Texts of the login page in each language, as the app shows them. */
const LOGIN_TEXT = {
  'zh-CN': { phone: '请输入手机号', code: '请输入验证码', send: '获取验证码', submit: '登录' },
  en: { phone: 'Mobile number', code: 'Verification code', send: 'Get code', submit: 'Sign in' },
} as const;

/**
 * Signs in through the login page (at `loginPath`, e.g. with an invitation's query) with the code the server "sent";
 * returns the stored user's id.
 */
export async function signIn(
  page: Page,
  server: E2eServer,
  phone: string,
  lang: 'zh-CN' | 'en',
  loginPath = 'user/login',
): Promise<string> {
  const text = LOGIN_TEXT[lang];
  // A phone signed in before has an older code: wait for the new one.
  const before = server.sms.lastCode(phone);
  await page.goto(`${server.url}/h5/#/${loginPath}`);
  await page.getByPlaceholder(text.phone).fill(phone);
  await page.getByRole('button', { name: text.send }).click();
  await waitFor(() => ![undefined, before].includes(server.sms.lastCode(phone)));
  await page.getByPlaceholder(text.code).fill(server.sms.lastCode(phone) ?? '');
  await page.locator('.login-agree .adm-checkbox-icon').click();
  await page.getByRole('button', { name: text.submit, exact: true }).click();
  await page.waitForURL(/#\/pages\/article\/index/);
  return page.evaluate(() => (JSON.parse(localStorage.getItem('user') ?? '{}') as { id: string }).id);
}

/** Polls `check` every 50 ms until it holds, failing after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('waitFor: timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A server and a browser for the tests of one `describe` block: started before them, stopped after them. Read
 * `server` and `browser` inside the tests.
 */
export function appUnderTest(options: Parameters<typeof startE2eServer>[0] = {}): {
  readonly server: E2eServer;
  readonly browser: Browser;
} {
  let server: E2eServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    server = await startE2eServer(options);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  return {
    get server() {
      if (!server) throw new Error('the e2e server is not started yet');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('the browser is not started yet');
      return browser;
    },
  };
}

/** An RGB PNG of `width` x `height` whose column `x` has the colour `colourAt(x)`, made here so no fixture is needed. */
export function pngFile(width: number, height: number, colourAt: (x: number) => readonly number[]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB, no interlace
  const row = Buffer.from([0, ...Array.from({ length: width }, (_, x) => colourAt(x)).flat()]);
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Calls the product API as the app does. */
export async function productApi(server: E2eServer, path: string, body: Record<string, unknown>) {
  const res = await fetch(`${server.url}/index.php/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return (await res.json()) as Record<string, any>;
}

/** The token and id of the member signed in on `page`. */
export const memberOf = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}') as { token: string; id: string });

/** Uploads a file as the member, as the app does (a grant, then the storage's form), and answers its URL. */
export async function uploadFile(
  server: E2eServer,
  token: string,
  file: { name: string; type: string; buffer: Buffer },
): Promise<string> {
  const grant = (await productApi(server, 'member/qiniu_token', { token })) as {
    upload_url: string;
    fields: Record<string, string>;
    key_prefix: string;
    url_prefix: string;
  };
  // The storage takes keys as the app makes them: the grant's prefix, then a random name and the extension.
  const key = `${grant.key_prefix}${randomName()}.${file.name.split('.').at(-1) ?? ''}`;
  const form = new FormData();
  for (const [field, value] of Object.entries(grant.fields)) form.append(field, value);
  form.append('key', key);
  form.append('file', new Blob([new Uint8Array(file.buffer)], { type: file.type }), file.name);
  const res = await fetch(grant.upload_url, { method: 'POST', body: form });
  if (res.status !== 200) throw new Error(`upload of ${file.name} answered ${res.status}`);
  return `${grant.url_prefix}${key}`;
}
