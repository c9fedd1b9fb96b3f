import { Button, Dialog, List, Space, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { copyText } from '../../ui/clipboard';
import { toast } from '../../ui/toast';
import { endRoom, pushFields, startRoom, type AnchorRoom, type LiveStatus } from './api';
import { showAnchorRefusal } from './refusal';
import '../shop/products.css';

const STATUS_COLOR: Record<LiveStatus, 'default' | 'danger' | 'warning'> = { 0: 'warning', 1: 'danger', 2: 'default' };

/** A value the anchor (or a guest) pastes into their streaming software, with its Copy button. */
export function PushField({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  // Without a clipboard, the value is on screen to copy by hand.
  const copy = () => copyText(value, t('live.copied'), t('live.copyFailed'));
  return (
    <List.Item
      title={label}
      extra={
        <Button
          size="mini"
          color="primary"
          fill="outline"
          aria-label={`${t('live.copy')} ${label}`}
          onClick={() => void copy()}
        >
          {t('live.copy')}
        </Button>
      }
    >
      <code className="live-push-value">{value}</code>
    </List.Item>
  );
}

/**
 * The anchor's open room: where their streaming software sends the stream (server and key apart, each with Copy, as
 * OBS asks for them), its status, Start and End (after a confirmation), choosing its goods and opening it.
 * `onChanged` runs after a start or an end.
 */
export function AnchorPanel({ room, onChanged }: { room: AnchorRoom; onChanged: () => Promise<void> }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const context = { token: user?.token, locale: i18n.language };
  const push = pushFields(room.push_url);

  const start = async () => {
    try {
      await startRoom(room.id, context);
      toast(t('live.started'));
    } catch (error) {
      await showAnchorRefusal(error, t, open);
    }
    await onChanged();
  };

  const end = async () => {
    const sure = await Dialog.confirm({
      content: t('live.endConfirm'),
      confirmText: t('live.end'),
      cancelText: t('common.cancel'),
    });
    if (!sure) return;
    try {
      await endRoom(room.id, context);
      toast(t('live.ended'));
    } catch (error) {
      await showAnchorRefusal(error, t, open);
    }
    await onChanged();
  };

  const roomPath = (page: string) => `live/${page}?id=${encodeURIComponent(room.id)}`;
  return (
    <>
      <List header={t('live.myRoom')}>
        <List.Item
          prefix={<img className="product-thumb" src={room.cover} alt="" />}
          extra={<Tag color={STATUS_COLOR[room.status]}>{t(`live.status_${room.status}`)}</Tag>}
        >
          {room.title}
        </List.Item>
      </List>
      <List header={t('live.push')}>
        <PushField label={t('live.pushServer')} value={push.server} />
        {push.key !== '' && <PushField label={t('live.pushKey')} value={push.key} />}
        <List.Item>
          <p className="muted live-push-hint">{t('live.pushHint')}</p>
          <p className="muted live-push-hint">{t('live.keySecret')}</p>
        </List.Item>
      </List>
      <div className="page-actions">
        <Space direction="vertical" block>
          {room.status === 0 && (
            <Button block color="primary" onClick={() => void start()}>
              {t('live.start')}
            </Button>
          )}
          <Button block onClick={() => open(roomPath('view'))}>
            {t('live.openRoom')}
          </Button>
          <Button block onClick={() => open(roomPath('shop-add'))}>
            {t('live.chooseGoods', { count: room.goods.length })}
          </Button>
          <Button block color="danger" fill="outline" onClick={() => void end()}>
            {t('live.end')}
          </Button>
        </Space>
      </div>
    </>
  );
}
