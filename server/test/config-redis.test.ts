import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('loadConfig: Redis', () => {
  it('puts every Redis name under parley: unless PARLEY_REDIS_PREFIX says otherwise', () => {
    expect(loadConfig({}).redisPrefix).toBe('parley:');
    expect(loadConfig({ REDIS_URL: 'redis://cache:6379', PARLEY_REDIS_PREFIX: 'chat-eu:' })).toMatchObject({
      redisUrl: 'redis://cache:6379',
      redisPrefix: 'chat-eu:',
    });
  });

  it('refuses a prefix Redis names should not hold, naming the variable', () => {
    expect(() => loadConfig({ PARLEY_REDIS_PREFIX: 'has space' })).toThrow(ConfigError);
    expect(() => loadConfig({ PARLEY_REDIS_PREFIX: 'has space' })).toThrow(
      'redisPrefix (from PARLEY_REDIS_PREFIX): must be 1 to 64 letters, digits or _ . : -',
    );
  });
});
