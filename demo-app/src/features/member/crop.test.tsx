import { describe, expect, it } from 'vitest';
import { AVATAR_SIDE, croppedSide, croppedType } from './crop';

describe('the avatar cropper’s output', () => {
  it('keeps a small square’s own size and scales a large one down', () => {
    expect(croppedSide({ x: 0, y: 0, width: 80, height: 80 })).toBe(80);
    expect(croppedSide({ x: 5, y: 5, width: 79.6, height: 79.6 })).toBe(80);
    expect(croppedSide({ x: 0, y: 0, width: 3000, height: 3000 })).toBe(AVATAR_SIDE);
    expect(croppedSide({ x: 0, y: 0, width: 0.2, height: 0.2 })).toBe(1);
  });

  it('keeps a PNG a PNG, for its transparency, and makes the rest JPEG', () => {
    expect(croppedType('image/png')).toBe('image/png');
    for (const type of ['image/jpeg', 'image/gif', '']) expect(croppedType(type)).toBe('image/jpeg');
  });
});
