import { apiPost, type CallContext } from '../api/request';

/** The query key of everything about announcements; invalidating it refreshes the list and each one read. */
export const ANNOUNCEMENTS_QUERY = 'announcements';

/**
 * An announcement of the operator to sellers as `shop/gonggao_list` gives it (spec §2 shop/business-gonggao):
 * `summary` is the first characters of its content on one line, `read` whether this seller has opened it. Times in ms.
 */
export interface AnnouncementItem {
  id: string;
  title: string;
  summary: string;
  pinned: boolean;
  created_at: number;
  updated_at: number;
  read: boolean;
}

/** An announcement as `shop/gonggao_view` gives it: its whole content, plain text whose lines part its paragraphs. */
export interface Announcement extends Omit<AnnouncementItem, 'summary'> {
  content: string;
}

/** A page of the seller's announcements, pinned first, then the newest; `before` the last id of the page before. */
export async function announcementPage(before: string | undefined, context: CallContext): Promise<AnnouncementItem[]> {
  const body = before !== undefined ? { before } : {};
  return (await apiPost<{ ret: AnnouncementItem[] }>('shop/gonggao_list', body, context)).ret;
}

/** Announcement `id`, with its content; reading it marks it read for the seller. */
export async function readAnnouncement(id: string, context: CallContext): Promise<Announcement> {
  return (await apiPost<{ ret: Announcement }>('shop/gonggao_view', { id }, context)).ret;
}

/** The paragraphs of an announcement's content: its lines, blank ones dropped. */
export function paragraphsOf(content: string): string[] {
  return content.split('\n').filter((line) => line.trim() !== '');
}
