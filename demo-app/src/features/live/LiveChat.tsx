import { ActionSheet, Avatar } from 'antd-mobile';
import { useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { BanKind, ChatLine } from './api';

/** How near the bottom (px) still counts as reading the newest lines. */
const AT_BOTTOM_PX = 40;

/**
 * The room's chat, newest at the bottom. It follows new lines while the member reads the newest, and stays where they
 * scrolled up to otherwise. With `onBan` (the anchor), tapping another member's line offers to mute them or remove
 * them from the room.
 */
export function LiveChat({
  lines,
  me,
  onBan,
}: {
  lines: readonly ChatLine[];
  me: string;
  onBan: ((line: ChatLine, kind: BanKind) => void) | undefined;
}) {
  const { t } = useTranslation();
  const list = useRef<HTMLDivElement>(null);
  const following = useRef(true);

  useLayoutEffect(() => {
    const element = list.current;
    if (element && following.current) element.scrollTop = element.scrollHeight;
  }, [lines]);

  const onScroll = () => {
    const element = list.current;
    if (!element) return;
    following.current = element.scrollHeight - element.scrollTop - element.clientHeight <= AT_BOTTOM_PX;
  };

  const actions = (line: ChatLine) => {
    if (!onBan) return;
    const sheet = ActionSheet.show({
      extra: line.username,
      actions: [
        { key: 'mute', text: t('live.mute'), onClick: () => (sheet.close(), onBan(line, 'mute')) },
        { key: 'kick', text: t('live.kick'), danger: true, onClick: () => (sheet.close(), onBan(line, 'kick')) },
      ],
      cancelText: t('common.cancel'),
    });
  };

  return (
    <div className="live-chat" ref={list} onScroll={onScroll} role="log" aria-label={t('live.chat')}>
      {lines.map((line) => {
        const others = onBan !== undefined && line.uid !== me;
        const content = (
          <>
            <Avatar src={line.img} className="live-chat-avatar" />
            <span className="live-chat-name">{line.username || t('im.user', { id: line.uid })}</span>
            <span className="live-chat-text">{line.text}</span>
          </>
        );
        return others ? (
          <button
            type="button"
            key={line.id}
            className="live-chat-line"
            data-testid="live-line"
            onClick={() => actions(line)}
          >
            {content}
          </button>
        ) : (
          <div key={line.id} className="live-chat-line" data-testid="live-line">
            {content}
          </div>
        );
      })}
    </div>
  );
}
