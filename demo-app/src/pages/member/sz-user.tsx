import { Avatar, Button, Input, List, ProgressBar } from 'antd-mobile';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { useUploadFile } from '../../features/api/upload';
import { NICKNAME_MAX_LENGTH, isProductImage, nicknameProblem, updateProfile } from '../../features/member/profile';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';
import './sz-user.css';

/** Edit info (spec §2 member/sz-user): the avatar, uploaded with progress, and the nickname. */
export default function ProfileSettings() {
  const { t, i18n } = useTranslation();
  const { user, refresh } = useSession();
  const upload = useUploadFile();
  const picker = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | undefined>(undefined);
  const [nickname, setNickname] = useState(user?.username ?? '');
  const [saving, setSaving] = useState(false);
  const pending = useRef<AbortController | undefined>(undefined);

  // Leaving the page stops an upload in flight.
  useEffect(() => () => pending.current?.abort(), []);

  if (!user) return null;
  const context = { token: user.token, locale: i18n.language };

  const changeAvatar = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!isProductImage(file)) return toastError(t('profile.imageOnly'));
    const controller = new AbortController();
    pending.current = controller;
    setProgress(0);
    try {
      const url = await upload(file, { onProgress: setProgress, signal: controller.signal });
      const saved = await updateProfile({ img: url }, context);
      refresh({ img: saved.img }, null);
      toast(t('profile.saved'));
    } catch (error) {
      if (!controller.signal.aborted) toastError(errorText(error, t));
    } finally {
      if (pending.current === controller) pending.current = undefined;
      if (!controller.signal.aborted) setProgress(undefined);
    }
  };

  const saveNickname = async () => {
    const problem = nicknameProblem(nickname);
    if (problem === 'empty') return toastError(t('profile.nicknameEmpty'));
    if (problem === 'too_long') return toastError(t('profile.nicknameTooLong', { max: NICKNAME_MAX_LENGTH }));
    setSaving(true);
    try {
      const saved = await updateProfile({ username: nickname.trim() }, context);
      refresh({ username: saved.username }, null);
      setNickname(saved.username);
      toast(t('profile.saved'));
    } catch (error) {
      toastError(errorText(error, t));
    } finally {
      setSaving(false);
    }
  };

  const uploading = progress !== undefined;
  return (
    <div className="page">
      <NavBar title={t('profile.title')} />
      <List>
        <List.Item
          onClick={uploading ? undefined : () => picker.current?.click()}
          extra={<Avatar src={user.img} className="profile-avatar" data-testid="profile-avatar" />}
          description={
            uploading ? (
              <div className="profile-progress" data-testid="profile-progress">
                <ProgressBar percent={progress} />
                <span>{t('profile.uploading', { percent: progress })}</span>
              </div>
            ) : (
              t('profile.changeAvatar')
            )
          }
        >
          {t('profile.avatar')}
        </List.Item>
      </List>
      <input
        ref={picker}
        type="file"
        accept="image/jpeg,image/png,image/gif,.jpg,.jpeg,.png,.gif"
        aria-label={t('profile.changeAvatar')}
        hidden
        onChange={(event) => void changeAvatar(event)}
      />
      <List header={t('profile.nickname')}>
        <List.Item>
          <Input
            aria-label={t('profile.nickname')}
            placeholder={t('profile.nicknamePlaceholder')}
            value={nickname}
            onChange={setNickname}
            clearable
          />
        </List.Item>
      </List>
      <div className="page-actions">
        <Button block color="primary" loading={saving} onClick={() => void saveNickname()}>
          {t('profile.save')}
        </Button>
      </div>
    </div>
  );
}
