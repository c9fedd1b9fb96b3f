import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Avatar, Button, ErrorBlock, List, Popup, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { errorText } from '../api/errors';
import { QueryView } from '../api/QueryView';
import { toast, toastError } from '../../ui/toast';
import { LIVE_QUERY, restoreViewer, roomBans } from './api';

/** The query key of a room's muted and removed viewers. */
export const bansKey = (room: string) => [LIVE_QUERY, 'bans', room] as const;

/** The anchor's sheet of the room's muted and removed viewers, newest first, each with Restore. */
export function BansPopup({ room, visible, onClose }: { room: string; visible: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const context = { token: user?.token, locale: i18n.language };
  const bans = useQuery({
    queryKey: bansKey(room),
    queryFn: () => roomBans(room, context),
    enabled: visible && user !== null,
    retry: false,
  });

  const restore = async (uid: string) => {
    try {
      await restoreViewer(room, uid, context);
      toast(t('live.restored'));
    } catch (error) {
      toastError(errorText(error, t));
    }
    await queryClient.invalidateQueries({ queryKey: bansKey(room) });
  };

  return (
    <Popup visible={visible} onMaskClick={onClose} showCloseButton onClose={onClose} bodyClassName="live-sheet">
      <h2>{t('live.banned')}</h2>
      <QueryView query={bans}>
        {(list) =>
          list.length === 0 ? (
            <ErrorBlock status="empty" title={t('live.noBans')} description="" />
          ) : (
            <List>
              {list.map((ban) => (
                <List.Item
                  key={ban.uid}
                  data-testid="live-ban"
                  prefix={<Avatar src={ban.img} style={{ '--size': '32px', '--border-radius': '50%' }} />}
                  description={
                    <Tag color={ban.kind === 'kick' ? 'danger' : 'warning'}>{t(`live.ban_${ban.kind}`)}</Tag>
                  }
                  extra={
                    <Button size="mini" color="primary" fill="outline" onClick={() => void restore(ban.uid)}>
                      {t('live.restore')}
                    </Button>
                  }
                >
                  {ban.username || t('im.user', { id: ban.uid })}
                </List.Item>
              ))}
            </List>
          )
        }
      </QueryView>
    </Popup>
  );
}
