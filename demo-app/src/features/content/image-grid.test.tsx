// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { imageGridClass } from './articles';

describe('image grid of a list (spec §9)', () => {
  it('one image alone, four as two columns of two, any other count in rows of three', () => {
    expect([1, 2, 3, 4, 5, 9].map(imageGridClass)).toEqual([
      'article-images article-images-one',
      'article-images',
      'article-images',
      'article-images article-images-four',
      'article-images',
      'article-images',
    ]);
  });

  it('the one image is 480 of 750 units wide; the four take two cells of a row of three', () => {
    const css = readFileSync(join(__dirname, 'articles.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    const rule = (selector: string) => new RegExp(`\\${selector} \\{([^}]*)\\}`).exec(css)?.[1] ?? '';
    expect(rule('.article-images-one')).toContain('grid-template-columns: 64%;');
    expect(rule('.article-images-four')).toContain('grid-template-columns: repeat(2, calc((100% - 8px) / 3));');
    expect(rule('.article-images')).toContain('grid-template-columns: repeat(3, 1fr);');
  });
});
