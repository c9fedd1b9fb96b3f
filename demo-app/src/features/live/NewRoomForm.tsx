import { Button, Input, List, ProgressBar } from 'antd-mobile';
import { useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { useImageUpload } from '../api/useImageUpload';
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
  const { progress, upload } = useImageUpload();
  const picker = useRef<HTMLInputElement>(null);
  const [title, setTitle] = useState('');
  const [cover, setCover] = useState('');
  const [sending, setSending] = useState(false);

  const picked = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const url = await upload(file);
    if (url !== undefined) setCover(url);
  };

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
          description={
            progress !== undefined && (
              <div className="feedback-progress" data-testid="live-cover-progress">
                <ProgressBar percent={progress} />
                <span>{t('profile.uploading', { percent: progress })}</span>
              </div>
            )
          }
        >
          <button
            type="button"
            className="live-cover-slot"
            aria-label={t('live.cover')}
            disabled={progress !== undefined}
            onClick={() => picker.current?.click()}
          >
            {cover ? <img src={cover} alt="" /> : '+'}
          </button>
        </List.Item>
      </List>
      <input
        ref={picker}
        type="file"
        accept="image/gif,image/jpeg,image/png"
        hidden
        data-testid="live-cover-picker"
        onChange={(event) => void picked(event)}
      />
      <div className="page-actions">
        <Button block color="primary" loading={sending} disabled={progress !== undefined} onClick={() => void create()}>
          {t('live.create')}
        </Button>
      </div>
    </>
  );
}
