import { Button, Input, List } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { UploadProgress, useImagePicker } from '../api/ImagePicker';
import { toast, toastError } from '../../ui/toast';
import { LIVE_LIMITS, addRoom, roomProblem } from './api';
import { showAnchorRefusal } from './refusal';

/**
 * The anchor's form for a new room: a title and a cover (uploaded as it is picked), checked before sending;
 * `onCreated` runs once the room exists.
 */
export function NewRoomForm({ onCreated }: { onCreated: () => Promise<void> }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const open = useNavigateTo();
  const [title, setTitle] = useState('');
  const [cover, setCover] = useState('');
  const [sending, setSending] = useState(false);
  const { progress, pick, input } = useImagePicker({ onUploaded: setCover, testId: 'live-cover-picker' });

  const create = async () => {
    const draft = { title: title.trim(), cover };
    const problem = roomProblem(draft);
    if (problem) return toastError(t(`errors.${problem}`));
    setSending(true);
    try {
      await addRoom(draft, { token: user?.token, locale: i18n.language });
      toast(t('live.created'));
      await onCreated();
    } catch (error) {
      await showAnchorRefusal(error, t, open);
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <List header={t('live.newRoom')}>
        <List.Item title={<label htmlFor="live-title">{t('live.roomTitle')}</label>}>
          <Input
            id="live-title"
            value={title}
            onChange={setTitle}
            maxLength={LIVE_LIMITS.titleMax}
            placeholder={t('live.titlePlaceholder', { max: LIVE_LIMITS.titleMax })}
          />
        </List.Item>
        <List.Item
          title={t('live.cover')}
          description={<UploadProgress percent={progress} testId="live-cover-progress" />}
        >
          <button
            type="button"
            className="live-cover-slot"
            aria-label={t('live.cover')}
            disabled={progress !== undefined}
            onClick={pick}
          >
            {cover ? <img src={cover} alt="" /> : '+'}
          </button>
        </List.Item>
      </List>
      {input}
      <div className="page-actions">
        <Button block color="primary" loading={sending} disabled={progress !== undefined} onClick={() => void create()}>
          {t('live.create')}
        </Button>
      </div>
    </>
  );
}
