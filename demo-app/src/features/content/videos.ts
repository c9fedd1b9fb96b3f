import { apiPost, type CallContext } from '../api/request';
import type { ArticleCard, ArticleVideo } from './articles';

/** A video in the video tab: a feed card with its video and cover. */
export interface VideoCard extends ArticleCard {
  video: ArticleVideo;
}

/** A page of videos, newest first (`video/lists`), of one channel's with `typeid`; `before` is the last id shown. */
export async function videoPage(
  params: { typeid?: string; before?: string | undefined },
  context: CallContext,
): Promise<VideoCard[]> {
  const body = {
    ...(params.typeid !== undefined && { typeid: params.typeid }),
    ...(params.before !== undefined && { before: params.before }),
  };
  return (await apiPost<{ ret: VideoCard[] }>('video/lists', body, context)).ret;
}
