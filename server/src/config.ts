import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod/mini';
import { LOG_LEVELS, type LogLevel } from './logger.js';
import { WEBHOOK_EVENTS, type WebhookEventName } from './webhooks.js';
import { ALIPAY_GATEWAY, alipayPrivateKey, alipayPublicKey, type AlipayConfig } from './payments/alipay.js';
import { WECHAT_API_BASE, wechatPrivateKey, wechatPublicKey, type WechatPayConfig } from './payments/wechat.js';
import {
  UPLOAD_ENV_NAMES,
  publicUrlSchema,
  readUploadEnv,
  trimUrl,
  uploadConfigSchema,
  type UploadConfig,
} from './uploads/config.js';

/** One app (tenant) the server serves. */
export interface AppConfig {
  /** Key that grants publish and subscribe. */
  appkey: string;
  /** Optional key that grants subscribe only. */
  subscribeKey?: string | undefined;
  /** Signs otps and access tokens; never leaves servers. */
  secretKey: string;
  /** Human name, for logs. @default the appkey */
  name: string;
  /** Whether a named user must present a valid otp at authorize. @default true */
  requireOtp: boolean;
  /** Whether private channels and groups need an access token. @default false */
  requireAccessToken: boolean;
  /** Where the app's server hears of its messages (HOOK-1), an http(s) URL; none when unset. */
  webhookUrl?: string | undefined;
  /** Which events its webhook hears of (HOOK-4); every one of {@link WEBHOOK_EVENTS} when unset. */
  webhookEvents?: readonly WebhookEventName[] | undefined;
}

/** Token bucket per connection: `perSecond` refill, at most `burst` requests at once. */
export interface RateLimitConfig {
  /** @default 50 */
  perSecond: number;
  /** @default 100 */
  burst: number;
}

/** The validated server configuration. */
/** See {@link ServerConfig.weather}. */
export interface WeatherConfig {
  forecastUrl: string;
  geocodingUrl: string;
}

/** Open-Meteo's public forecast and geocoding APIs: free, without a key, for non-commercial use. */
export const OPEN_METEO = {
  forecastUrl: 'https://api.open-meteo.com/v1/forecast',
  geocodingUrl: 'https://geocoding-api.open-meteo.com/v1/search',
} as const;

/** See {@link ServerConfig.epidemic}. */
export interface EpidemicConfig {
  url: string;
}

/** disease.sh's open COVID-19 API (Johns Hopkins CSSE's and Worldometers' figures): free, without a key. */
export const DISEASE_SH = { url: 'https://disease.sh/v3/covid-19' } as const;

/** A provider's URL, or `off` (or empty, in a config file) for none. */
const weatherUrl = z.union([
  z.literal(''),
  z.literal('off'),
  z.url({ protocol: /^https?$/, error: 'must be an http(s) URL or off' }),
]);
const urlOrOff = (url: string) => (url === 'off' ? '' : url);

/**
 * Where live rooms are pushed and played: templates of the operator's media server (SRS, nginx-rtmp, ...) URLs, in
 * which `{stream}` stands for a room's public stream name and, in the push URL only, `{key}` for its secret push key.
 * Both empty (the default): live streaming is off.
 */
export interface LiveConfig {
  /** E.g. `rtmp://media.example.com/live/{stream}?key={key}`. Env `PARLEY_LIVE_PUSH_URL`. @default '' */
  pushUrl: string;
  /** E.g. `https://media.example.com/live/{stream}.m3u8`. Env `PARLEY_LIVE_PLAY_URL`. @default '' */
  playUrl: string;
}

const liveTemplate = (what: string, key: boolean) =>
  z.union([
    z.literal(''),
    z.string({ error: `must be ${what}` }).check(
      z.regex(/^[a-z][a-z0-9+.-]*:\/\/\S+$/i, `must be ${what}`),
      z.includes('{stream}', { error: 'must hold {stream}' }),
      z.refine((url) => url.includes('{key}') === key, key ? 'must hold {key}' : 'must not hold {key}'),
    ),
  ]);

export interface ServerConfig {
  /** HTTP and socket.io port; 0 picks a free one. Env `PORT`. @default 3000 */
  port: number;
  /** Interface to listen on. Env `HOST`. @default '0.0.0.0' */
  host: string;
  /** PostgreSQL connection string; unset means SQLite. Env `DATABASE_URL`. */
  databaseUrl: string | undefined;
  /** PostgreSQL schema to use (created if missing); unset means the server's default. Env `PARLEY_DATABASE_SCHEMA`. */
  databaseSchema: string | undefined;
  /** Redis URL; set to run several nodes behind one address. Env `REDIS_URL`. */
  redisUrl: string | undefined;
  /**
   * Put before every Redis key, stream and channel name, so that several deployments can share one Redis.
   * Env `PARLEY_REDIS_PREFIX`. @default 'parley:'
   */
  redisPrefix: string;
  /** Directory for the SQLite file and uploads. Env `PARLEY_DATA_DIR`. @default './data' */
  dataDir: string;
  /** SQLite file path or `:memory:`. Env `PARLEY_SQLITE`. @default `<dataDir>/parley.db` */
  sqlite: string | undefined;
  /**
   * Let other processes open the SQLite file while the server runs (a `sqlite3` shell, a backup or replication
   * tool); by default it is the server's alone, which spares file locks in every transaction and stops a second
   * server on the same file at its start. Env `PARLEY_SQLITE_SHARED`. @default false
   */
  sqliteShared: boolean;
  /** Env `LOG_LEVEL`. @default 'info' */
  logLevel: LogLevel;
  /** Apps served. Env `PARLEY_APPS` (JSON array). @default one demo app, see {@link DEMO_APP} */
  apps: AppConfig[];
  /** How long a disconnected session's sid stays valid for a `reconnected`. Env `PARLEY_SESSION_TTL_MS`. @default 600000 */
  sessionTtlMs: number;
  /** A connection that has not authorized this long after it opened is closed. Env `PARLEY_AUTHORIZE_TIMEOUT_MS`. @default 30000 */
  authorizeTimeoutMs: number;
  /** Directory of the built product app, served at `/h5/`. Env `PARLEY_APP_DIR`. @default `<server>/../demo-app/dist` */
  appDir: string;
  /** Request rate limit per connection. Env `PARLEY_RATE_LIMIT_PER_SECOND`, `PARLEY_RATE_LIMIT_BURST`. */
  rateLimit: RateLimitConfig;
  /** Most connections one user of an app may have on one node (WIRE-10). Env `PARLEY_MAX_USER_CONNECTIONS`. @default 100 */
  maxUserConnections: number;
  /**
   * The token `GET /metrics` asks for (METRICS-1), at least 16 characters; unset, the node serves no metrics. Env
   * `PARLEY_METRICS_TOKEN`.
   */
  metricsToken: string | undefined;
  /** Pub/sub history retention per channel. Env `PARLEY_PUBSUB_HISTORY_MAX_MESSAGES`, `PARLEY_PUBSUB_HISTORY_MAX_AGE_MS`. */
  pubsubHistory: PubsubHistoryConfig;
  /** The server's public base URL, for the upload host in tokens. Env `PARLEY_PUBLIC_URL`. @default http://localhost:<port> */
  publicUrl: string | undefined;
  /** Upload storage: the server's own (default) or S3. Env `PARLEY_UPLOAD_DIR`, `PARLEY_S3_*`. */
  uploads: UploadConfig;
  /**
   * The app whose messaging otps the product API (`/index.php/api/`) issues at login. Env `PARLEY_PRODUCT_APPKEY`.
   * @default 'demo-appkey'
   */
  productAppkey: string;
  /**
   * Whether the product app shows its "app-show" tab labels (front page, video) rather than "latest" and "hot".
   * Env `PARLEY_APP_SHOW` (`true`/`false`). @default true
   */
  appShow: boolean;
  /**
   * Where the weather page's forecasts and the city chooser's places come from: an Open-Meteo forecast API
   * (`forecastUrl`, env `PARLEY_WEATHER_URL`) and geocoding API (`geocodingUrl`, env `PARLEY_GEOCODING_URL`).
   * `off` turns that part off (here: the URL is empty). @default Open-Meteo's public APIs
   */
  weather: WeatherConfig;
  /**
   * Where the epidemic page's figures come from: a disease.sh v3 COVID-19 API base (`<url>/all`, `<url>/countries`).
   * Env `PARLEY_EPIDEMIC_URL`; `off` turns the page's figures off (here: the URL is empty). @default disease.sh's API
   */
  epidemic: EpidemicConfig;
  /**
   * Where the product app's days begin, as minutes east of UTC: the task centre's daily sign-in counts days by it.
   * Env `PARLEY_DAY_OFFSET_MINUTES` (-720 to 840). @default 480 (China Standard Time, UTC+8)
   */
  dayOffsetMinutes: number;
  /** The product app's customer service: its team and its agents. Env `PARLEY_CS_*`, see {@link CsConfig}. */
  cs: CsConfig;
  /**
   * Which proxies in front of the server to believe about the client's address (`X-Forwarded-For`), for the limits
   * per address: `false` none, `true` all, a number of hops, or a list of proxy addresses and CIDR ranges. Env
   * `PARLEY_TRUST_PROXY` (`true`, `false`, a number, or a comma list). @default false
   */
  trustProxy: TrustProxy;
  /** Live streaming's media server URLs; both empty: live streaming is off. See {@link LiveConfig}. */
  live: LiveConfig;
  /**
   * The wallet's Alipay application (PAY-1..PAY-3): env `PARLEY_ALIPAY_APP_ID`, `PARLEY_ALIPAY_PRIVATE_KEY`,
   * `PARLEY_ALIPAY_PUBLIC_KEY` (Alipay's) and `PARLEY_ALIPAY_GATEWAY`. Undefined (the default): recharges by Alipay
   * wait for the operator's report of their payment.
   */
  alipay?: AlipayConfig | undefined;
  /**
   * The wallet's WeChat Pay merchant (PAY-4..PAY-6): env `PARLEY_WECHAT_MCH_ID`, `PARLEY_WECHAT_APP_ID`,
   * `PARLEY_WECHAT_SERIAL_NO`, `PARLEY_WECHAT_PRIVATE_KEY`, `PARLEY_WECHAT_PLATFORM_KEY`, `PARLEY_WECHAT_API_V3_KEY`
   * and `PARLEY_WECHAT_API_BASE`. Undefined (the default): recharges by WeChat Pay wait for the operator's report.
   */
  wechat?: WechatPayConfig | undefined;
}

/** See {@link ServerConfig.trustProxy}. */
export type TrustProxy = boolean | number | string[];

/**
 * The product app's customer service: the team customers reach from the app's kefu entry, and which members are
 * its agents (they get the agent console).
 */
export interface CsConfig {
  /** The team's id. Env `PARLEY_CS_TEAM_ID`. @default 'service' */
  teamId: string;
  /**
   * The team's display name; empty means the app's own words for customer service. Env `PARLEY_CS_TEAM_NAME`.
   * @default ''
   */
  teamName: string;
  /**
   * The agents: member ids or phone numbers (mainland numbers bare, others `+<code> <number>`). Env
   * `PARLEY_CS_AGENTS`, a comma list. @default {@link DEMO_CS_AGENTS}
   */
  agents: string[];
}

/** The agents when none are configured, so that a development server has a working team: sign in with these. */
export const DEMO_CS_AGENTS: readonly string[] = ['13800000001', '13800000002'];

/** How much of each channel's history the server keeps: the newest `maxMessages`, none older than `maxAgeMs`. */
export interface PubsubHistoryConfig {
  /** @default 100 */
  maxMessages: number;
  /** @default 86400000 (24 h) */
  maxAgeMs: number;
}

/** The app configured when none is given, so that a fresh checkout works with the demo app. */
export const DEMO_APP: AppConfig = {
  appkey: 'demo-appkey',
  subscribeKey: 'demo-subscribe-key',
  secretKey: 'demo-secret-key',
  name: 'Parley demo',
  requireOtp: true,
  requireAccessToken: false,
};

/** Where the built demo app lives relative to this package, independent of the working directory. */
// From the module's own path, not `new URL(...)`: hosts that replace the global URL (jsdom) would break it.
const DEFAULT_APP_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../demo-app/dist');

/** Thrown by {@link loadConfig} with one line per problem, naming the setting and where it came from. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const nonEmpty = (what: string) => z.string({ error: `must be ${what}` }).check(z.minLength(1, `must be ${what}`));
const intIn = (min: number, max: number) =>
  z
    .int({ error: `must be an integer from ${min} to ${max}` })
    .check(
      z.gte(min, `must be an integer from ${min} to ${max}`),
      z.lte(max, `must be an integer from ${min} to ${max}`),
    );

const appSchema = z.object({
  appkey: nonEmpty('a non-empty string'),
  subscribeKey: z.optional(nonEmpty('a non-empty string')),
  secretKey: nonEmpty('a non-empty string'),
  name: z.optional(z.string({ error: 'must be a string' })),
  requireOtp: z._default(z.boolean({ error: 'must be true or false' }), true),
  requireAccessToken: z._default(z.boolean({ error: 'must be true or false' }), false),
  webhookUrl: z.optional(
    z.string({ error: 'must be an http(s) URL' }).check(
      z.maxLength(2048, 'must be an http(s) URL'),
      z.refine((v) => /^https?:\/\/[^\s/]+/.test(v) && URL.canParse(v), 'must be an http(s) URL'),
    ),
  ),
  webhookEvents: z.optional(
    z
      .array(z.enum(WEBHOOK_EVENTS, { error: `must name events among ${WEBHOOK_EVENTS.join(', ')}` }), {
        error: `must be a list of events among ${WEBHOOK_EVENTS.join(', ')}`,
      })
      .check(z.minLength(1, `must be a list of events among ${WEBHOOK_EVENTS.join(', ')}`)),
  ),
});

const configSchema = z.object({
  port: z._default(intIn(0, 65535), 3000),
  host: z._default(nonEmpty('a host name or address'), '0.0.0.0'),
  databaseUrl: z.optional(nonEmpty('a postgres:// connection string')),
  databaseSchema: z.optional(
    z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'must be a plain SQL identifier')),
  ),
  redisUrl: z.optional(nonEmpty('a redis:// URL')),
  redisPrefix: z._default(
    z.string().check(z.regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'must be 1 to 64 letters, digits or _ . : -')),
    'parley:',
  ),
  dataDir: z._default(nonEmpty('a directory path'), './data'),
  sqlite: z.optional(nonEmpty('a file path or :memory:')),
  sqliteShared: z._default(z.boolean({ error: 'must be true or false' }), false),
  logLevel: z._default(z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }), 'info'),
  apps: z.optional(z.array(appSchema, { error: 'must be an array of apps' })),
  sessionTtlMs: z._default(intIn(1000, 2_592_000_000), 600_000),
  authorizeTimeoutMs: z._default(intIn(100, 86_400_000), 30_000),
  appDir: z._default(nonEmpty('a directory path'), DEFAULT_APP_DIR),
  rateLimit: z._default(
    z.object({
      perSecond: z._default(intIn(1, 1_000_000), 50),
      burst: z._default(intIn(1, 1_000_000), 100),
    }),
    { perSecond: 50, burst: 100 },
  ),
  maxUserConnections: z._default(intIn(1, 1_000_000), 100),
  metricsToken: z.optional(
    z.string().check(z.minLength(16, { error: 'must be at least 16 characters' }), z.maxLength(256)),
  ),
  pubsubHistory: z._default(
    z.object({
      maxMessages: z._default(intIn(0, 100_000), 100),
      maxAgeMs: z._default(intIn(0, 31_536_000_000), 86_400_000),
    }),
    { maxMessages: 100, maxAgeMs: 86_400_000 },
  ),
  publicUrl: publicUrlSchema,
  uploads: uploadConfigSchema,
  productAppkey: z._default(nonEmpty('an appkey'), DEMO_APP.appkey),
  appShow: z._default(z.boolean({ error: 'must be true or false' }), true),
  weather: z._default(
    z.object({
      forecastUrl: z._default(weatherUrl, OPEN_METEO.forecastUrl),
      geocodingUrl: z._default(weatherUrl, OPEN_METEO.geocodingUrl),
    }),
    { ...OPEN_METEO },
  ),
  epidemic: z._default(z.object({ url: z._default(weatherUrl, DISEASE_SH.url) }), { ...DISEASE_SH }),
  dayOffsetMinutes: z._default(intIn(-720, 840), 480),
  cs: z._default(
    z.object({
      teamId: z._default(
        z.string({ error: 'must be a team id' }).check(z.regex(/^\S{1,60}$/, 'must be 1 to 60 characters, no spaces')),
        'service',
      ),
      teamName: z._default(
        z.string({ error: 'must be a string' }).check(z.maxLength(60, 'must be at most 60 characters')),
        '',
      ),
      agents: z._default(z.array(nonEmpty('a member id or phone number'), { error: 'must be a list of agents' }), [
        ...DEMO_CS_AGENTS,
      ]),
    }),
    { teamId: 'service', teamName: '', agents: [...DEMO_CS_AGENTS] },
  ),
  trustProxy: z._default(
    z.union([z.boolean(), intIn(0, 100), z.array(nonEmpty('a proxy address or CIDR range')).check(z.minLength(1))], {
      error: 'must be true, false, a hop count, or a list of proxy addresses',
    }),
    false,
  ),
  live: z._default(
    z.object({
      pushUrl: z._default(liveTemplate('a URL template', true), ''),
      playUrl: z._default(liveTemplate('a URL template', false), ''),
    }),
    { pushUrl: '', playUrl: '' },
  ),
  alipay: z.optional(
    z.object({
      appId: z.string().check(z.regex(/^\d{8,32}$/, 'must be an Alipay app id (digits)')),
      privateKey: nonEmpty('the application private key').check(
        z.refine(readable(alipayPrivateKey), 'must be an RSA private key: PEM, or base64 of PKCS#8 or PKCS#1'),
      ),
      alipayPublicKey: nonEmpty("Alipay's public key").check(
        z.refine(readable(alipayPublicKey), 'must be an RSA public key: PEM, or base64 of SPKI'),
      ),
      gateway: z._default(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }), ALIPAY_GATEWAY),
    }),
  ),
  wechat: z.optional(
    z.object({
      mchId: z.string().check(z.regex(/^\d{8,32}$/, 'must be a WeChat Pay merchant id (digits)')),
      appId: z.string().check(z.regex(/^wx[0-9a-zA-Z]{8,32}$/, 'must be a WeChat app id (wx...)')),
      serialNo: z.string().check(z.regex(/^[0-9A-Fa-f]{8,64}$/, 'must be a certificate serial number (hex)')),
      privateKey: nonEmpty("the merchant's API private key").check(
        z.refine(readable(wechatPrivateKey), 'must be an RSA private key in PEM'),
      ),
      platformKey: nonEmpty("the WeChat Pay platform's public key").check(
        z.refine(readable(wechatPublicKey), 'must be an RSA public key in PEM'),
      ),
      apiV3Key: z.string().check(z.regex(/^[\x21-\x7e]{32}$/, 'must be the 32-character API v3 key')),
      apiBase: z._default(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }), WECHAT_API_BASE),
    }),
  ),
});

/** Whether `read` takes the text: a key that cannot be read fails the config, not the first payment. */
function readable(read: (text: string) => unknown) {
  return (text: string) => {
    try {
      read(text);
      return true;
    } catch {
      return false;
    }
  };
}

/** Environment variable for each setting, to name the source in errors. */
const ENV_NAMES: Record<string, string> = {
  port: 'PORT',
  host: 'HOST',
  databaseUrl: 'DATABASE_URL',
  databaseSchema: 'PARLEY_DATABASE_SCHEMA',
  redisUrl: 'REDIS_URL',
  redisPrefix: 'PARLEY_REDIS_PREFIX',
  dataDir: 'PARLEY_DATA_DIR',
  sqlite: 'PARLEY_SQLITE',
  sqliteShared: 'PARLEY_SQLITE_SHARED',
  logLevel: 'LOG_LEVEL',
  apps: 'PARLEY_APPS',
  sessionTtlMs: 'PARLEY_SESSION_TTL_MS',
  authorizeTimeoutMs: 'PARLEY_AUTHORIZE_TIMEOUT_MS',
  appDir: 'PARLEY_APP_DIR',
  'rateLimit.perSecond': 'PARLEY_RATE_LIMIT_PER_SECOND',
  'rateLimit.burst': 'PARLEY_RATE_LIMIT_BURST',
  maxUserConnections: 'PARLEY_MAX_USER_CONNECTIONS',
  metricsToken: 'PARLEY_METRICS_TOKEN',
  'pubsubHistory.maxMessages': 'PARLEY_PUBSUB_HISTORY_MAX_MESSAGES',
  'pubsubHistory.maxAgeMs': 'PARLEY_PUBSUB_HISTORY_MAX_AGE_MS',
  ...UPLOAD_ENV_NAMES,
  productAppkey: 'PARLEY_PRODUCT_APPKEY',
  appShow: 'PARLEY_APP_SHOW',
  'weather.forecastUrl': 'PARLEY_WEATHER_URL',
  'weather.geocodingUrl': 'PARLEY_GEOCODING_URL',
  'epidemic.url': 'PARLEY_EPIDEMIC_URL',
  dayOffsetMinutes: 'PARLEY_DAY_OFFSET_MINUTES',
  'cs.teamId': 'PARLEY_CS_TEAM_ID',
  'cs.teamName': 'PARLEY_CS_TEAM_NAME',
  'cs.agents': 'PARLEY_CS_AGENTS',
  trustProxy: 'PARLEY_TRUST_PROXY',
  'live.pushUrl': 'PARLEY_LIVE_PUSH_URL',
  'live.playUrl': 'PARLEY_LIVE_PLAY_URL',
  'alipay.appId': 'PARLEY_ALIPAY_APP_ID',
  'alipay.privateKey': 'PARLEY_ALIPAY_PRIVATE_KEY',
  'alipay.alipayPublicKey': 'PARLEY_ALIPAY_PUBLIC_KEY',
  'alipay.gateway': 'PARLEY_ALIPAY_GATEWAY',
  'wechat.mchId': 'PARLEY_WECHAT_MCH_ID',
  'wechat.appId': 'PARLEY_WECHAT_APP_ID',
  'wechat.serialNo': 'PARLEY_WECHAT_SERIAL_NO',
  'wechat.privateKey': 'PARLEY_WECHAT_PRIVATE_KEY',
  'wechat.platformKey': 'PARLEY_WECHAT_PLATFORM_KEY',
  'wechat.apiV3Key': 'PARLEY_WECHAT_API_V3_KEY',
  'wechat.apiBase': 'PARLEY_WECHAT_API_BASE',
};

/** Environment variables read, as a plain map (`process.env` fits). */
export type Environment = Readonly<Record<string, string | undefined>>;

/** Reads a config file's text; injectable for tests. */
export type FileReader = (path: string) => string;

/**
 * Builds the server config from `env` and, when `PARLEY_CONFIG` names one, a JSON file whose keys are the
 * {@link ServerConfig} field names. Environment variables win over the file; defaults fill the rest.
 * @throws ConfigError naming every bad setting.
 */
export function loadConfig(env: Environment, fileReader: FileReader = (p) => readFileSync(p, 'utf8')): ServerConfig {
  const file = readConfigFile(env['PARLEY_CONFIG'], fileReader);
  const fromEnv = readEnv(env);
  const merged: Record<string, unknown> = { ...file, ...fromEnv };
  // Rate limit settings merge field by field, so that one env variable does not drop the file's other field.
  if (isRecord(fromEnv['rateLimit']) && isRecord(file['rateLimit'])) {
    merged['rateLimit'] = { ...file['rateLimit'], ...fromEnv['rateLimit'] };
  }
  if (isRecord(fromEnv['pubsubHistory']) && isRecord(file['pubsubHistory'])) {
    merged['pubsubHistory'] = { ...file['pubsubHistory'], ...fromEnv['pubsubHistory'] };
  }
  if (isRecord(fromEnv['cs']) && isRecord(file['cs'])) merged['cs'] = { ...file['cs'], ...fromEnv['cs'] };
  if (isRecord(fromEnv['live']) && isRecord(file['live'])) merged['live'] = { ...file['live'], ...fromEnv['live'] };
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const path = issue.path.join('.');
      const top = issue.path.slice(0, 1).join('');
      const source = fromEnv[top] !== undefined ? (ENV_NAMES[path] ?? ENV_NAMES[top]) : undefined;
      return `  - ${path || '(root)'}${source ? ` (from ${source})` : ''}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid Parley config:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  if ((c.live.pushUrl === '') !== (c.live.playUrl === '')) {
    throw new ConfigError(
      'Invalid Parley config:\n  - live (PARLEY_LIVE_PUSH_URL, PARLEY_LIVE_PLAY_URL): set both to turn live streaming on, or neither',
    );
  }
  const apps: AppConfig[] = (c.apps ?? [DEMO_APP]).map((a) => ({ ...a, name: a.name ?? a.appkey }));
  checkAppKeysUnique(apps);
  return {
    port: c.port,
    host: c.host,
    databaseUrl: c.databaseUrl,
    databaseSchema: c.databaseSchema,
    redisUrl: c.redisUrl,
    redisPrefix: c.redisPrefix,
    dataDir: c.dataDir,
    sqlite: c.sqlite,
    sqliteShared: c.sqliteShared,
    logLevel: c.logLevel,
    apps,
    sessionTtlMs: c.sessionTtlMs,
    authorizeTimeoutMs: c.authorizeTimeoutMs,
    appDir: c.appDir,
    rateLimit: { perSecond: c.rateLimit.perSecond, burst: c.rateLimit.burst },
    maxUserConnections: c.maxUserConnections,
    metricsToken: c.metricsToken,
    pubsubHistory: { maxMessages: c.pubsubHistory.maxMessages, maxAgeMs: c.pubsubHistory.maxAgeMs },
    publicUrl: c.publicUrl === undefined ? undefined : trimUrl(c.publicUrl),
    uploads: {
      dir: c.uploads.dir,
      s3: c.uploads.s3 ? { ...c.uploads.s3, publicUrl: c.uploads.s3.publicUrl } : undefined,
      ffmpeg: c.uploads.ffmpeg,
      renditions: { ...c.uploads.renditions },
    },
    productAppkey: c.productAppkey,
    appShow: c.appShow,
    weather: { forecastUrl: urlOrOff(c.weather.forecastUrl), geocodingUrl: urlOrOff(c.weather.geocodingUrl) },
    epidemic: { url: urlOrOff(c.epidemic.url) },
    dayOffsetMinutes: c.dayOffsetMinutes,
    cs: { teamId: c.cs.teamId, teamName: c.cs.teamName, agents: [...c.cs.agents] },
    trustProxy: Array.isArray(c.trustProxy) ? [...c.trustProxy] : c.trustProxy,
    live: { pushUrl: c.live.pushUrl, playUrl: c.live.playUrl },
    alipay: c.alipay && { ...c.alipay },
    wechat: c.wechat && { ...c.wechat },
  };
}

function readConfigFile(path: string | undefined, fileReader: FileReader): Record<string, unknown> {
  if (!path) return {};
  let text: string;
  try {
    text = fileReader(path);
  } catch (err) {
    throw new ConfigError(`Invalid Parley config: cannot read PARLEY_CONFIG file ${path}: ${(err as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`Invalid Parley config: PARLEY_CONFIG file ${path} is not JSON: ${(err as Error).message}`);
  }
  if (!isRecord(value)) throw new ConfigError(`Invalid Parley config: PARLEY_CONFIG file ${path} must hold an object`);
  return value;
}

/** Maps set, non-empty environment variables to config fields, still unvalidated. */
function readEnv(env: Environment): Record<string, unknown> {
  const get = (name: string): string | undefined => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };
  const num = (name: string): number | string | undefined => {
    const v = get(name);
    // Keep unparsable text as is so that the error shows what was given rather than NaN.
    return v === undefined ? undefined : /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
  };
  const out: Record<string, unknown> = {
    port: num('PORT'),
    host: get('HOST'),
    databaseUrl: get('DATABASE_URL'),
    databaseSchema: get('PARLEY_DATABASE_SCHEMA'),
    redisUrl: get('REDIS_URL'),
    redisPrefix: get('PARLEY_REDIS_PREFIX'),
    dataDir: get('PARLEY_DATA_DIR'),
    sqlite: get('PARLEY_SQLITE'),
    sqliteShared: booleanFromEnv(get('PARLEY_SQLITE_SHARED')),
    logLevel: get('LOG_LEVEL'),
    sessionTtlMs: num('PARLEY_SESSION_TTL_MS'),
    authorizeTimeoutMs: num('PARLEY_AUTHORIZE_TIMEOUT_MS'),
    maxUserConnections: num('PARLEY_MAX_USER_CONNECTIONS'),
    metricsToken: get('PARLEY_METRICS_TOKEN'),
    appDir: get('PARLEY_APP_DIR'),
    publicUrl: get('PARLEY_PUBLIC_URL'),
    uploads: readUploadEnv(get),
    productAppkey: get('PARLEY_PRODUCT_APPKEY'),
    // Kept as text when not a boolean word, so that the error shows what was given.
    appShow: booleanFromEnv(get('PARLEY_APP_SHOW')),
    weather: { forecastUrl: get('PARLEY_WEATHER_URL'), geocodingUrl: get('PARLEY_GEOCODING_URL') },
    epidemic: { url: get('PARLEY_EPIDEMIC_URL') },
    dayOffsetMinutes: num('PARLEY_DAY_OFFSET_MINUTES'),
    trustProxy: trustProxyFromEnv(get('PARLEY_TRUST_PROXY')),
  };
  const apps = get('PARLEY_APPS');
  if (apps !== undefined) {
    try {
      out['apps'] = JSON.parse(apps);
    } catch (err) {
      throw new ConfigError(`Invalid Parley config:\n  - apps (from PARLEY_APPS): not JSON: ${(err as Error).message}`);
    }
  }
  // A group of settings is there when any of its variables is, so that a missing one is reported rather than the
  // whole group silently left at its default (live streaming, a payment provider off).
  out['cs'] = given({
    teamId: get('PARLEY_CS_TEAM_ID'),
    teamName: get('PARLEY_CS_TEAM_NAME'),
    agents: get('PARLEY_CS_AGENTS')
      ?.split(',')
      .map((a) => a.trim())
      .filter((a) => a !== ''),
  });
  out['live'] = given({ pushUrl: get('PARLEY_LIVE_PUSH_URL'), playUrl: get('PARLEY_LIVE_PLAY_URL') });
  out['alipay'] = given({
    appId: get('PARLEY_ALIPAY_APP_ID'),
    privateKey: get('PARLEY_ALIPAY_PRIVATE_KEY'),
    alipayPublicKey: get('PARLEY_ALIPAY_PUBLIC_KEY'),
    gateway: get('PARLEY_ALIPAY_GATEWAY'),
  });
  out['wechat'] = given({
    mchId: get('PARLEY_WECHAT_MCH_ID'),
    appId: get('PARLEY_WECHAT_APP_ID'),
    serialNo: get('PARLEY_WECHAT_SERIAL_NO'),
    privateKey: get('PARLEY_WECHAT_PRIVATE_KEY'),
    platformKey: get('PARLEY_WECHAT_PLATFORM_KEY'),
    apiV3Key: get('PARLEY_WECHAT_API_V3_KEY'),
    apiBase: get('PARLEY_WECHAT_API_BASE'),
  });
  out['rateLimit'] = given({ perSecond: num('PARLEY_RATE_LIMIT_PER_SECOND'), burst: num('PARLEY_RATE_LIMIT_BURST') });
  out['pubsubHistory'] = given({
    maxMessages: num('PARLEY_PUBSUB_HISTORY_MAX_MESSAGES'),
    maxAgeMs: num('PARLEY_PUBSUB_HISTORY_MAX_AGE_MS'),
  });
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}

/** The fields of a group of settings that were given, or undefined when none was. */
function given(fields: Record<string, unknown>): Record<string, unknown> | undefined {
  const set = Object.entries(fields).filter(([, v]) => v !== undefined);
  return set.length > 0 ? Object.fromEntries(set) : undefined;
}

function checkAppKeysUnique(apps: readonly AppConfig[]): void {
  const seen = new Set<string>();
  for (const app of apps) {
    for (const key of [app.appkey, app.subscribeKey]) {
      if (key === undefined) continue;
      if (seen.has(key)) throw new ConfigError(`Invalid Parley config:\n  - apps: key "${key}" is used twice`);
      seen.add(key);
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `true` or `false` as a boolean; anything else as it is, for the schema to refuse with the variable's name. */
function booleanFromEnv(value: string | undefined): unknown {
  return value === 'true' ? true : value === 'false' ? false : value;
}

/** `PARLEY_TRUST_PROXY`: `true`/`false`, a hop count, or a comma list of addresses (the schema judges the result). */
function trustProxyFromEnv(value: string | undefined): unknown {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^\d+$/.test(text)) return Number(text);
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}
