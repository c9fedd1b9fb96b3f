// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { thumbnailUrl } from './thumbnail';

const own = { upload_url: 'https://app.test/uploads', image_resize: true };
const file = (name: string) => `https://app.test/uploads/product/a/m1/parley_${name}`;

describe('thumbnailUrl (UP-20)', () => {
  it('asks the own storage for the next width up from the box on this screen', () => {
    expect(thumbnailUrl(file('x.jpg'), 100, own)).toBe(`${file('x.jpg')}?x-oss-process=image/resize,m_lfit,w_128`);
    expect(thumbnailUrl(file('x.PNG'), 100, own, 3)).toBe(`${file('x.PNG')}?x-oss-process=image/resize,m_lfit,w_512`);
    expect(thumbnailUrl(file('x.jpeg'), 64, own, 1)).toBe(`${file('x.jpeg')}?x-oss-process=image/resize,m_lfit,w_64`);
    // A ratio below 1 asks no less than the box.
    expect(thumbnailUrl(file('x.png'), 100, own, 0.5)).toBe(`${file('x.png')}?x-oss-process=image/resize,m_lfit,w_128`);
  });

  it('leaves the URL as it is where resizing cannot help', () => {
    for (const [url, storage] of [
      [file('x.gif'), own],
      [file('x.webp'), own],
      [`${file('x.jpg')}?v=2`, own],
      ['https://cdn.other.test/uploads/x.jpg', own],
      [file('x.jpg'), { upload_url: own.upload_url, image_resize: false }],
      [file('x.jpg'), { upload_url: own.upload_url }],
      [file('x.jpg'), { upload_url: '', image_resize: true }],
      [file('x.jpg'), undefined],
    ] as const) {
      expect(thumbnailUrl(url, 100, storage), `${url} ${JSON.stringify(storage)}`).toBe(url);
    }
    expect(thumbnailUrl(file('x.jpg'), 1025, own)).toBe(file('x.jpg'));
    expect(thumbnailUrl('https://app.test/uploadsX/a.jpg', 100, own)).toBe('https://app.test/uploadsX/a.jpg');
  });
});
