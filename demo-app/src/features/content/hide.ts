import { apiPost, type CallContext } from '../api/request';

/** What a member may hide from their feeds: an article, a video or a circle post. */
export type HideName = 'article' | 'video' | 'quanzi';

/** Hides an item from the member's feeds ("Not interested"), or shows it again (spec §7 `member/yinbi`). */
export async function setHidden(name: HideName, id: string, hide: boolean, context: CallContext): Promise<void> {
  await apiPost(`member/yinbi/name/${name}/aid/${encodeURIComponent(id)}`, { hide }, context);
}
