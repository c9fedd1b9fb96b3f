import { apiPost, type CallContext } from '../api/request';
import { uploadExtension } from '../api/upload';
import type { ArticleCard, ArticleVideo } from './articles';
import type { VideoSource } from './VideoPlayer';

/** A video in the video tab: a feed card with its video and cover. */
export interface VideoCard extends ArticleCard {
  video: ArticleVideo;
}

/**
 * A page of videos, newest first (`video/lists`), of one channel's with `typeid` (`video/lists/in/{typeid}`, spec
 * §7), or of those holding `keyword`; `before` is the last id shown.
 */
export async function videoPage(
  params: { typeid?: string; keyword?: string; before?: string | undefined },
  context: CallContext,
): Promise<VideoCard[]> {
  const path = params.typeid === undefined ? 'video/lists' : `video/lists/in/${encodeURIComponent(params.typeid)}`;
  const body = {
    ...(params.keyword !== undefined && { keyword: params.keyword }),
    ...(params.before !== undefined && { before: params.before }),
  };
  return (await apiPost<{ ret: VideoCard[] }>(path, body, context)).ret;
}

/**
 * The resolutions of the video at `url` (`public/video_sources`), smallest first: those of a video uploaded through
 * the app, none for any other link.
 */
export async function videoSourcesOf(url: string, context: CallContext): Promise<VideoSource[]> {
  return (await apiPost<{ ret: VideoSource[] }>('public/video_sources', { url }, context)).ret;
}

/** A video as written: title and text as an article's, the uploaded video's and cover's URLs, and a channel. */
export interface VideoDraft {
  title: string;
  content: string;
  video: string;
  cover: string;
  typeid?: string | undefined;
}

/** Publishes a video (`member/video_add`); resolves with the new video's id (`vid`). */
export async function publishVideo(draft: VideoDraft, context: CallContext): Promise<string> {
  const body = {
    title: draft.title.trim(),
    content: draft.content.trim(),
    video: draft.video,
    img: draft.cover,
    ...(draft.typeid !== undefined && { typeid: draft.typeid }),
  };
  return (await apiPost<{ ret: unknown; vid: string }>('member/video_add', body, context, { loading: true })).vid;
}

/**
 * Publishing progress (spec §4, §9 "Publishing progress: video 70, cover 20"): the video's upload fills the first 70,
 * the cover's the next 20, the post the last 10.
 */
export const VIDEO_PROGRESS = { video: 70, cover: 20 } as const;

/** The overall percentage while `part` is `percent` done: whole numbers from 0 to 90 until the post is answered. */
export function videoProgress(part: 'video' | 'cover', percent: number): number {
  const start = part === 'video' ? 0 : VIDEO_PROGRESS.video;
  return start + Math.round((VIDEO_PROGRESS[part] * percent) / 100);
}

/**
 * Publishing progress of a post's images (spec §4 "images are uploaded one by one, then the article is posted ...
 * images 10 per image", §9 "Publishing progress: 10 per image"): each image's upload fills the next 10, the post the
 * rest up to 100 (at most 9 images, so at most 90 before the post).
 */
export const IMAGE_PROGRESS_EACH = 10;

/** The video types the storage takes (spec §5 "Video: avi, mov, rmvb, rm, flv, mp4, 3gp, quicktime"). */
export const VIDEO_EXTENSIONS = ['avi', 'mov', 'rmvb', 'rm', 'flv', 'mp4', '3gp'] as const;

/** Whether `file` is a video the storage takes: its name's extension, else its type's, is one of theirs. */
export function isVideoFile(file: File): boolean {
  const extension = uploadExtension(file);
  return extension !== undefined && (VIDEO_EXTENSIONS as readonly string[]).includes(extension);
}
