import { describe, expect, it } from 'vitest';
import { SECURE_APP } from './helpers.js';
import { startProductServer } from './product-support.js';

describe('product API: index/config', () => {
  it('returns the app config: kefu link, emoji map, upload URL, messaging appkey', async () => {
    const p = await startProductServer();
    const answer = await p.call('index/config', {});
    expect(answer).toMatchObject({
      status: 200,
      ret: {
        kefu_h5: expect.any(String),
        aliyun: { upload_url: expect.any(String), image_resize: true },
        app_show: true,
      },
    });
    expect(answer.ret.im).toEqual({ appkey: SECURE_APP.appkey });
    const emoji = Object.entries(answer.ret.emoji as Record<string, string>);
    expect(emoji.length).toBeGreaterThan(0);
    for (const [name, url] of emoji) {
      expect(name).toMatch(/^[a-z]+$/);
      expect(url).toMatch(/^data:image\/svg\+xml,/);
    }
  });
});
