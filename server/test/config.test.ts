import { describe, expect, it } from 'vitest';
import { ConfigError, DEMO_APP, loadConfig } from '../src/config.js';

describe('loadConfig', () => {
  it('fills documented defaults from an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      redisUrl: undefined,
      dataDir: './data',
      logLevel: 'info',
      sessionTtlMs: 600_000,
      authorizeTimeoutMs: 30_000,
      rateLimit: { perSecond: 50, burst: 100 },
      maxUserConnections: 100,
    });
    expect(config.apps).toEqual([DEMO_APP]);
    expect(config.appDir).toMatch(/demo-app[/\\]dist$/);
  });

  it('UP-21: takes video snapshots with ffmpeg from PATH unless PARLEY_FFMPEG names another or turns them off', () => {
    expect(loadConfig({}).uploads.ffmpeg).toBe('ffmpeg');
    expect(loadConfig({ PARLEY_FFMPEG: '/opt/ffmpeg/bin/ffmpeg' }).uploads.ffmpeg).toBe('/opt/ffmpeg/bin/ffmpeg');
    expect(loadConfig({ PARLEY_FFMPEG: 'off' }).uploads.ffmpeg).toBe(false);
    expect(loadConfig({ PARLEY_FFMPEG: 'off', PARLEY_UPLOAD_DIR: '/srv/files' }).uploads).toMatchObject({
      dir: '/srv/files',
      ffmpeg: false,
    });
  });

  it('UP-22: makes renditions one ffmpeg at a time unless told otherwise, and refuses a bad setting by its name', () => {
    expect(loadConfig({}).uploads.renditions).toEqual({ concurrency: 1, timeoutMs: 600_000 });
    const env = { PARLEY_RENDITION_CONCURRENCY: '0', PARLEY_RENDITION_TIMEOUT_MS: '30000' };
    expect(loadConfig(env).uploads.renditions).toEqual({ concurrency: 0, timeoutMs: 30_000 });
    expect(() => loadConfig({ PARLEY_RENDITION_CONCURRENCY: 'two' })).toThrow(
      /uploads\.renditions\.concurrency \(from PARLEY_RENDITION_CONCURRENCY\)/,
    );
    expect(() => loadConfig({ PARLEY_RENDITION_TIMEOUT_MS: '10' })).toThrow(/PARLEY_RENDITION_TIMEOUT_MS.*1000/);
  });

  it('reads environment overrides', () => {
    const config = loadConfig({
      PORT: '4100',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://u@db/x',
      REDIS_URL: 'redis://cache:6379',
      PARLEY_DATA_DIR: '/var/parley',
      LOG_LEVEL: 'debug',
      PARLEY_SESSION_TTL_MS: '5000',
      PARLEY_AUTHORIZE_TIMEOUT_MS: '2500',
      PARLEY_RATE_LIMIT_PER_SECOND: '7',
      PARLEY_MAX_USER_CONNECTIONS: '12',
    });
    expect(config).toMatchObject({
      port: 4100,
      host: '127.0.0.1',
      databaseUrl: 'postgres://u@db/x',
      redisUrl: 'redis://cache:6379',
      dataDir: '/var/parley',
      logLevel: 'debug',
      sessionTtlMs: 5000,
      authorizeTimeoutMs: 2500,
      rateLimit: { perSecond: 7, burst: 100 },
      maxUserConnections: 12,
    });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '  ' })).toMatchObject({ port: 3000, databaseUrl: undefined });
  });

  it('reads the PARLEY_CONFIG file, with the environment winning', () => {
    const files: Record<string, string> = {
      '/etc/parley.json': JSON.stringify({
        port: 5000,
        host: '10.0.0.1',
        logLevel: 'warn',
        rateLimit: { perSecond: 3, burst: 9 },
      }),
    };
    const read = (path: string) => {
      const text = files[path];
      if (text === undefined) throw new Error('ENOENT');
      return text;
    };
    const config = loadConfig({ PARLEY_CONFIG: '/etc/parley.json', PORT: '5001', PARLEY_RATE_LIMIT_BURST: '20' }, read);
    expect(config).toMatchObject({
      port: 5001,
      host: '10.0.0.1',
      logLevel: 'warn',
      rateLimit: { perSecond: 3, burst: 20 },
    });
    expect(() => loadConfig({ PARLEY_CONFIG: '/nope.json' }, read)).toThrow(
      /cannot read PARLEY_CONFIG file \/nope\.json/,
    );
  });

  it('refuses an invalid PORT with a readable error naming the variable', () => {
    for (const PORT of ['abc', '70000', '-1', '3.5']) {
      let error: unknown;
      try {
        loadConfig({ PORT });
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain('port (from PORT): must be an integer from 0 to 65535');
    }
  });

  it('reads apps from PARLEY_APPS JSON with per-app defaults', () => {
    const config = loadConfig({
      PARLEY_APPS: JSON.stringify([
        { appkey: 'k1', secretKey: 's1' },
        { appkey: 'k2', secretKey: 's2', requireOtp: false, subscribeKey: 'k2-sub', name: 'Two' },
      ]),
    });
    expect(config.apps).toEqual([
      { appkey: 'k1', secretKey: 's1', name: 'k1', requireOtp: true, requireAccessToken: false },
      {
        appkey: 'k2',
        secretKey: 's2',
        name: 'Two',
        requireOtp: false,
        requireAccessToken: false,
        subscribeKey: 'k2-sub',
      },
    ]);
  });

  it('refuses malformed or clashing apps', () => {
    expect(() => loadConfig({ PARLEY_APPS: '[{' })).toThrow(/PARLEY_APPS.*not JSON/);
    expect(() => loadConfig({ PARLEY_APPS: '[{"appkey":"k"}]' })).toThrow(/apps\.0\.secretKey/);
    expect(() =>
      loadConfig({ PARLEY_APPS: '[{"appkey":"k","secretKey":"s"},{"appkey":"j","subscribeKey":"k","secretKey":"t"}]' }),
    ).toThrow(/key "k" is used twice/);
  });

  it('reads PARLEY_TRUST_PROXY as a flag, a hop count or a list of proxies', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ PARLEY_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ PARLEY_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ PARLEY_TRUST_PROXY: ' 10.0.0.1, 10.1.0.0/16 ' }).trustProxy).toEqual([
      '10.0.0.1',
      '10.1.0.0/16',
    ]);
    for (const value of [',', '101']) {
      expect(() => loadConfig({ PARLEY_TRUST_PROXY: value })).toThrow(/trustProxy \(from PARLEY_TRUST_PROXY\)/);
    }
  });

  it('reads PARLEY_SQLITE_SHARED as true or false, false by default', () => {
    expect(loadConfig({}).sqliteShared).toBe(false);
    expect(loadConfig({ PARLEY_SQLITE_SHARED: 'true' }).sqliteShared).toBe(true);
    expect(loadConfig({ PARLEY_SQLITE_SHARED: 'false' }).sqliteShared).toBe(false);
    expect(() => loadConfig({ PARLEY_SQLITE_SHARED: 'yes' })).toThrow(
      /sqliteShared \(from PARLEY_SQLITE_SHARED\): must be true or false/,
    );
  });

  it('reads where the product app days begin, PARLEY_DAY_OFFSET_MINUTES, within a day of UTC', () => {
    expect(loadConfig({}).dayOffsetMinutes).toBe(480);
    expect(loadConfig({ PARLEY_DAY_OFFSET_MINUTES: '-300' }).dayOffsetMinutes).toBe(-300);
    for (const value of ['841', '-721', '1.5', 'east']) {
      expect(() => loadConfig({ PARLEY_DAY_OFFSET_MINUTES: value }), value).toThrow(
        /dayOffsetMinutes \(from PARLEY_DAY_OFFSET_MINUTES\)/,
      );
    }
  });

  it('reads the weather provider’s URLs, off turning one off; Open-Meteo by default', () => {
    expect(loadConfig({}).weather).toEqual({
      forecastUrl: 'https://api.open-meteo.com/v1/forecast',
      geocodingUrl: 'https://geocoding-api.open-meteo.com/v1/search',
    });
    expect(
      loadConfig({ PARLEY_WEATHER_URL: 'http://10.0.0.5:8080/v1/forecast', PARLEY_GEOCODING_URL: 'off' }).weather,
    ).toEqual({ forecastUrl: 'http://10.0.0.5:8080/v1/forecast', geocodingUrl: '' });
    expect(() => loadConfig({ PARLEY_WEATHER_URL: 'ftp://x/forecast' })).toThrow(/PARLEY_WEATHER_URL/);
  });

  it('LIVE-1: reads the live media server’s URL templates; both or neither, {stream} in each, {key} in the push URL only', () => {
    expect(loadConfig({}).live).toEqual({ pushUrl: '', playUrl: '' });
    const live = {
      PARLEY_LIVE_PUSH_URL: 'rtmp://media.test/live/{stream}?key={key}',
      PARLEY_LIVE_PLAY_URL: 'https://media.test/live/{stream}.m3u8',
    };
    expect(loadConfig(live).live).toEqual({
      pushUrl: 'rtmp://media.test/live/{stream}?key={key}',
      playUrl: 'https://media.test/live/{stream}.m3u8',
    });
    expect(() => loadConfig({ PARLEY_LIVE_PUSH_URL: live.PARLEY_LIVE_PUSH_URL })).toThrow(
      /PARLEY_LIVE_PUSH_URL, PARLEY_LIVE_PLAY_URL\): set both/,
    );
    expect(() => loadConfig({ PARLEY_LIVE_PLAY_URL: live.PARLEY_LIVE_PLAY_URL })).toThrow(ConfigError);
    expect(() => loadConfig({ ...live, PARLEY_LIVE_PUSH_URL: 'rtmp://media.test/live/{stream}' })).toThrow(
      /live\.pushUrl \(from PARLEY_LIVE_PUSH_URL\): must hold \{key\}/,
    );
    expect(() => loadConfig({ ...live, PARLEY_LIVE_PLAY_URL: 'https://media.test/{stream}?k={key}' })).toThrow(
      /live\.playUrl \(from PARLEY_LIVE_PLAY_URL\): must not hold \{key\}/,
    );
    expect(() => loadConfig({ ...live, PARLEY_LIVE_PLAY_URL: 'https://media.test/live.m3u8' })).toThrow(
      /live\.playUrl \(from PARLEY_LIVE_PLAY_URL\): must hold \{stream\}/,
    );
    expect(() => loadConfig({ ...live, PARLEY_LIVE_PUSH_URL: 'media {stream} {key}' })).toThrow(
      /live\.pushUrl \(from PARLEY_LIVE_PUSH_URL\): must be a URL template/,
    );
    // From a file, with the environment winning field by field.
    const file = JSON.stringify({
      live: { pushUrl: 'srt://file.test/{stream}?key={key}', playUrl: 'https://file.test/{stream}.flv' },
    });
    expect(
      loadConfig({ PARLEY_CONFIG: 'c.json', PARLEY_LIVE_PLAY_URL: live.PARLEY_LIVE_PLAY_URL }, () => file).live,
    ).toEqual({ pushUrl: 'srt://file.test/{stream}?key={key}', playUrl: live.PARLEY_LIVE_PLAY_URL });
  });

  it('refuses an unknown log level', () => {
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/logLevel \(from LOG_LEVEL\): must be one of/);
  });

  it('WIRE-10: refuses a bound on user connections that is not a whole number of 1 or more', () => {
    for (const value of ['0', '-1', '2.5', 'many']) {
      expect(() => loadConfig({ PARLEY_MAX_USER_CONNECTIONS: value })).toThrow(
        /maxUserConnections \(from PARLEY_MAX_USER_CONNECTIONS\)/,
      );
    }
  });

  it('refuses an authorize timeout out of range', () => {
    for (const value of ['50', '86400001', 'soon']) {
      expect(() => loadConfig({ PARLEY_AUTHORIZE_TIMEOUT_MS: value })).toThrow(
        /authorizeTimeoutMs \(from PARLEY_AUTHORIZE_TIMEOUT_MS\)/,
      );
    }
  });
});
