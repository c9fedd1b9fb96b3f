/** A part of an image in its own pixels, as the cropper reports the part chosen. */
export interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The side of a cropped avatar at most, in pixels: large enough for a profile page on a sharp screen. */
export const AVATAR_SIDE = 512;

/** The type a cropped image is saved as: PNG keeps a PNG's transparency, anything else becomes a JPEG. */
export const croppedType = (type: string): 'image/png' | 'image/jpeg' =>
  type === 'image/png' ? 'image/png' : 'image/jpeg';

/** The side of the square a chosen part is drawn into: its own size, scaled down to {@link AVATAR_SIDE}. */
export const croppedSide = (area: Area): number => Math.max(1, Math.min(AVATAR_SIDE, Math.round(area.width)));

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('the image cannot be read'));
    image.src = url;
  });
}

/**
 * Draws the square `area` of the picture `file` into a new image of {@link croppedSide} pixels a side, ready to
 * upload as an avatar; rejects when the browser cannot read or draw it.
 */
export async function cropImage(file: Blob, area: Area): Promise<File> {
  const url = URL.createObjectURL(file);
  try {
    const image = await loadImage(url);
    const side = croppedSide(area);
    const canvas = document.createElement('canvas');
    canvas.width = side;
    canvas.height = side;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no canvas');
    const type = croppedType(file.type);
    // A JPEG has no transparency: what was transparent becomes white, not black.
    if (type === 'image/jpeg') {
      context.fillStyle = '#fff';
      context.fillRect(0, 0, side, side);
    }
    context.imageSmoothingQuality = 'high';
    context.drawImage(image, area.x, area.y, area.width, area.height, 0, 0, side, side);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, 0.9));
    if (!blob) throw new Error('the image cannot be written');
    return new File([blob], type === 'image/png' ? 'avatar.png' : 'avatar.jpg', { type });
  } finally {
    URL.revokeObjectURL(url);
  }
}
