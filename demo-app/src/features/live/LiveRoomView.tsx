import { useQueryClient } from '@tanstack/react-query';
import { Avatar, Button, Dialog } from 'antd-mobile';
import { useParleyClient } from 'parley-im/react';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useMessaging } from '../../app/messaging';
import { useClosePage } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../api/errors';
import { isRefusal } from '../api/request';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';
import { banViewer, roomKey, say, type BanKind, type ChatLine, type RoomDetail } from './api';
import { BansPopup, bansKey } from './BansPopup';
import { joinLiveChannel } from './channel';
import { ChatInput } from './ChatInput';
import { CoBroadcastButton, CoBroadcastPanel } from './CoBroadcast';
import type { LiveEvent } from './events';
import { GoodsPopup } from './GoodsPopup';
import { GuestWindows } from './GuestWindows';
import { LinksPopup, linksKey, useRoomLinks } from './LinksPopup';
import { LiveChat } from './LiveChat';
import { LivePlayer } from './LivePlayer';
import { LiveRoom } from './room';

/** Keeps `room` joined to its channel while mounted: under the messaging provider only. */
function RoomChannel({
  room,
  channel,
  accessToken,
  onEvent,
}: {
  room: LiveRoom;
  channel: string;
  accessToken: string | null;
  onEvent: (event: LiveEvent) => void;
}) {
  const client = useParleyClient();
  const latest = useRef(onEvent);
  useEffect(() => {
    latest.current = onEvent;
  });
  // The token of the first answer: the subscription keeps it, and a newer answer need not join again.
  const [token] = useState(accessToken);
  useEffect(
    () =>
      joinLiveChannel({
        client,
        channel,
        accessToken: token,
        onEvent: (event) => latest.current(event),
        onViewers: (count) => room.presence(count),
      }),
    [client, channel, token, room],
  );
  return null;
}

/** The anchor's entry to co-broadcast in the room's bar, with the count of waiting requests. */
function RequestsButton({ room, onClick }: { room: string; onClick: () => void }) {
  const { t } = useTranslation();
  const links = useRoomLinks(room);
  const waiting = links.data?.filter((link) => link.status === 'waiting').length ?? 0;
  return (
    <button type="button" className="feedback-mine" onClick={onClick}>
      {t('live.requests', { count: waiting })}
    </button>
  );
}

/**
 * One live room on screen (spec §2 live/view): the stream or why there is none, with the guests on stage in small
 * windows over it, the anchor and how many watch, the goods, the chat and the box to write in. Events of the room's
 * channel change it as they come: the live starting (its play URL is asked for) or ending, the goods, the member
 * muted, restored or removed (told, and the page closes), and co-broadcasts asked for, accepted and gone. A viewer
 * asks to co-broadcast and, once accepted, is told where to stream; the anchor taps a viewer's line to mute or remove
 * them, lists those in "Banned" to restore them, and answers co-broadcast requests in "Requests".
 */
export function LiveRoomView({ detail }: { detail: RoomDetail }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const me = user?.id ?? '';
  const { available } = useMessaging();
  const queryClient = useQueryClient();
  const close = useClosePage();
  const [room] = useState(() => new LiveRoom({ detail, me }));
  const state = useSyncExternalStore(room.subscribe, room.getSnapshot);
  const [sheet, setSheet] = useState<'goods' | 'bans' | 'links' | undefined>(undefined);
  const context = { token: user?.token, locale: i18n.language };
  const anchor = detail.me.anchor;

  const loaded = useRef(detail);
  useEffect(() => {
    if (loaded.current !== detail) room.load(detail);
    loaded.current = detail;
  }, [room, detail]);

  useEffect(() => {
    if (!state.removed) return;
    void Dialog.alert({ content: t('errors.live_removed'), confirmText: t('common.ok') }).then(close);
    // Told once, when removed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state.removed]);

  const refresh = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: roomKey(detail.id, user?.id) }),
    [queryClient, detail.id, user?.id],
  );

  const onEvent = useCallback(
    (event: LiveEvent) => {
      room.apply(event);
      // Started: the play URL comes with the room's page.
      if (event.type === 'status' && event.status === 1) refresh();
      if (anchor && (event.type === 'mute' || event.type === 'kick' || event.type === 'restore')) {
        void queryClient.invalidateQueries({ queryKey: bansKey(detail.id) });
      }
      if (event.type !== 'link') return;
      if (anchor) void queryClient.invalidateQueries({ queryKey: linksKey(detail.id) });
      const mine = event.uid === me;
      if (mine && event.status === 'rejected') toast(t('live.linkDeclined'));
      if (mine && event.status === 'ended') toast(t('live.linkEnded'));
      // The event names no one and carries no push URL: the room's page has both.
      const named = room.getSnapshot().guests.some((guest) => guest.uid === event.uid && guest.username !== '');
      if (event.status === 'accepted' && (mine || !named)) refresh();
    },
    [room, queryClient, detail.id, anchor, me, refresh, t],
  );

  const send = async (text: string) => {
    try {
      room.said(await say(detail.id, text, context));
      return true;
    } catch (error) {
      if (isRefusal(error) && error.code === 'live_removed') room.silenced();
      if (isRefusal(error) && error.code === 'live_state') refresh();
      toastError(errorText(error, t));
      return false;
    }
  };

  const ban = async (line: ChatLine, kind: BanKind) => {
    try {
      await banViewer(detail.id, line.uid, kind, context);
      toast(kind === 'mute' ? t('live.muted') : t('live.kicked'));
    } catch (error) {
      toastError(errorText(error, t));
    }
    await queryClient.invalidateQueries({ queryKey: bansKey(detail.id) });
  };

  let closed: string | undefined;
  if (state.muted) closed = t('errors.live_removed');
  else if (state.status === 0) closed = t('live.notStarted');
  else if (state.status === 2) closed = t('live.ended');

  const playing = state.status === 1 && detail.play_url ? detail.play_url : undefined;
  const linkProps = { roomId: detail.id, room, refresh };
  const mayAsk = !anchor && state.status === 1 && !state.muted && state.link === null;
  return (
    <>
      <NavBar
        title={detail.title}
        right={
          anchor && (
            <span className="navbar-actions">
              <RequestsButton room={detail.id} onClick={() => setSheet('links')} />
              <button type="button" className="feedback-mine" onClick={() => setSheet('bans')}>
                {t('live.banned')}
              </button>
            </span>
          )
        }
      />
      {available && (
        <RoomChannel room={room} channel={detail.channel} accessToken={detail.access_token} onEvent={onEvent} />
      )}
      <section className="live-stage">
        {playing ? (
          <LivePlayer key={playing} url={playing} poster={detail.cover} label={detail.title} />
        ) : (
          <img className="live-video" src={detail.cover} alt="" />
        )}
        {state.status === 1 && <GuestWindows guests={state.guests} />}
        {state.status !== 1 && (
          <div className="live-overlay" role="status">
            {state.status === 0 ? t('live.notStarted') : t('live.ended')}
          </div>
        )}
      </section>
      <section className="live-info">
        <Avatar src={detail.anchor.img} style={{ '--size': '36px', '--border-radius': '50%' }} />
        <div className="live-info-who">
          <strong>{detail.anchor.username || t('im.user', { id: detail.anchor.id })}</strong>
          <span className="muted" data-testid="live-viewers">
            {t('live.viewers', { count: state.viewers })}
          </span>
        </div>
        {mayAsk && <CoBroadcastButton {...linkProps} />}
        <Button size="small" onClick={() => setSheet('goods')}>
          {t('live.goods', { count: state.goods.length })}
        </Button>
      </section>
      {state.link && <CoBroadcastPanel link={state.link} {...linkProps} />}
      <LiveChat lines={state.messages} me={me} onBan={anchor ? (line, kind) => void ban(line, kind) : undefined} />
      <ChatInput closed={closed} send={send} />
      <GoodsPopup goods={state.goods} visible={sheet === 'goods'} onClose={() => setSheet(undefined)} />
      {anchor && <BansPopup room={detail.id} visible={sheet === 'bans'} onClose={() => setSheet(undefined)} />}
      {anchor && (
        <LinksPopup room={detail.id} stage={room} visible={sheet === 'links'} onClose={() => setSheet(undefined)} />
      )}
    </>
  );
}
