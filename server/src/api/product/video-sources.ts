import type { VideoSource } from '../../uploads/renditions.js';
import type { ProductApiDeps } from './index.js';

/**
 * UP-22: the resolutions of each video of `urls` by URL, as records of videos show them (`video.sources`): read now,
 * so that renditions made since a video was published are offered as soon as they are there.
 */
export async function videoSourcesOf(
  deps: ProductApiDeps,
  urls: ReadonlyArray<string | undefined>,
): Promise<Map<string, VideoSource[]>> {
  const wanted = [...new Set(urls.filter((url): url is string => !!url))];
  const found = await Promise.all(
    wanted.map(async (url) => [url, await deps.uploads.service.videoSources(url)] as const),
  );
  return new Map(found);
}
