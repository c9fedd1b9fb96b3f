import { http, HttpResponse } from 'msw';
import { PAGE_SIZE } from '../api/paged';
import type { Announcement, AnnouncementItem } from './announcements';
import type { FakeRefundKit } from './fake-refunds';
import type { FakeShopState } from './fake-shop';

/** An announcement to sellers, not pinned, not read, its content two paragraphs. */
export function fakeAnnouncement(id: string, extra: Partial<Announcement> = {}): Announcement {
  return {
    id,
    title: `Announcement ${id}`,
    content: `First paragraph of ${id}.\n\nSecond paragraph.`,
    pinned: false,
    created_at: 1_700_000_000_000,
    updated_at: 1_700_000_000_000,
    read: false,
    ...extra,
  };
}

/** What the announcement handlers share with the rest of the fake shop: the same as the refund handlers. */
export type FakeAnnouncementKit = FakeRefundKit;

/** How many of the announcements the member has not read: 0 until their shop is open, as `shop/apply_info` says. */
export function unreadAnnouncements(state: FakeShopState): number {
  return state.myShop?.status === 'approved' ? state.announcements.filter((item) => !item.read).length : 0;
}

/**
 * The announcement calls of the fake shop (spec §2 shop/business-gonggao, business-gonggao-view), answered as the
 * server does: only a member whose shop is open reads them; the list goes pinned first, then the newest, twenty at a
 * time, with the unread count; reading one marks it read. The announcements are `state.announcements`.
 */
export function announcementHandlers({ state, record, refused }: FakeAnnouncementKit) {
  const notOpen = () => refused('shop_not_open', 'please open a shop first');
  const ordered = () =>
    [...state.announcements].sort(
      (a, b) => Number(b.pinned) - Number(a.pinned) || b.created_at - a.created_at || b.id.localeCompare(a.id),
    );
  return [
    http.post('*/index.php/api/shop/gonggao_list', async ({ request }) => {
      const { body, refusal } = await record('shop/gonggao_list', request);
      if (refusal) return HttpResponse.json(refusal);
      if (state.myShop?.status !== 'approved') return notOpen();
      const all = ordered();
      const from = body['before'] === undefined ? 0 : all.findIndex((item) => item.id === body['before']) + 1;
      const ret: AnnouncementItem[] = all
        .slice(from, from + PAGE_SIZE)
        .map(({ content, ...item }) => ({ ...item, summary: content.replace(/\s+/g, ' ').slice(0, 80) }));
      return HttpResponse.json({ ret, unread: unreadAnnouncements(state) });
    }),
    http.post('*/index.php/api/shop/gonggao_view', async ({ request }) => {
      const { body, refusal } = await record('shop/gonggao_view', request);
      if (refusal) return HttpResponse.json(refusal);
      if (state.myShop?.status !== 'approved') return notOpen();
      const found = state.announcements.find((item) => item.id === body['id']);
      if (!found) return refused('announcement_missing', 'the announcement does not exist or has been removed');
      const read = { ...found, read: true };
      state.announcements = state.announcements.map((item) => (item.id === found.id ? read : item));
      return HttpResponse.json({ ret: read });
    }),
  ];
}
