import { useCallback } from 'react';
import { useAppConfig, type AppConfig } from './config';

/**
 * Widths, in device pixels, thumbnails are asked in: the next one up from what a box needs, so that each image has
 * few sizes made of it (the storage keeps 8 an image, UP-20).
 */
export const THUMBNAIL_WIDTHS = [64, 128, 256, 512, 1024] as const;

const RESIZED = /\.(?:jpe?g|png)$/i;

/**
 * `url` resized to fit a box `cssWidth` CSS pixels wide on a screen of `pixelRatio`, when `storage` is the server's
 * own, which resizes images (`index/config`'s `aliyun.image_resize`, UP-20); `url` itself otherwise: another host's
 * file, a URL with a query already, a gif (it may be animated) or a box wider than the largest step.
 */
export function thumbnailUrl(
  url: string,
  cssWidth: number,
  storage: AppConfig['aliyun'] | undefined,
  pixelRatio = 1,
): string {
  if (!storage?.image_resize || !storage.upload_url || !url.startsWith(`${storage.upload_url}/`)) return url;
  if (/[?#]/.test(url) || !RESIZED.test(url)) return url;
  const needed = Math.ceil(cssWidth * Math.max(1, pixelRatio));
  const width = THUMBNAIL_WIDTHS.find((step) => step >= needed);
  return width === undefined ? url : `${url}?x-oss-process=image/resize,m_lfit,w_${width}`;
}

/** {@link thumbnailUrl} with the app's storage and this screen's pixel ratio. */
export function useThumbnail(): (url: string, cssWidth: number) => string {
  const { data } = useAppConfig();
  const storage = data?.aliyun;
  return useCallback(
    (url: string, cssWidth: number) => thumbnailUrl(url, cssWidth, storage, globalThis.devicePixelRatio || 1),
    [storage],
  );
}
