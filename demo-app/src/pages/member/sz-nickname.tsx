import { Button, Input, List } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClosePage } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { NICKNAME_MAX_LENGTH, nicknameProblem, updateProfile } from '../../features/member/profile';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';

/** The nickname (spec §2 member/sz-nickname): 1 to 20 characters, changed once a month (spec §5, §9). */
export default function NicknameSettings() {
  const { t, i18n } = useTranslation();
  const { user, refresh } = useSession();
  const close = useClosePage();
  const [nickname, setNickname] = useState(user?.username ?? '');
  const [saving, setSaving] = useState(false);
  if (!user) return null;

  const save = async () => {
    const problem = nicknameProblem(nickname);
    if (problem === 'empty') return toastError(t('profile.nicknameEmpty'));
    if (problem === 'too_long') return toastError(t('profile.nicknameTooLong', { max: NICKNAME_MAX_LENGTH }));
    setSaving(true);
    try {
      const saved = await updateProfile({ username: nickname.trim() }, { token: user.token, locale: i18n.language });
      refresh({ username: saved.username }, null);
      toast(t('profile.saved'));
      close();
    } catch (error) {
      toastError(errorText(error, t));
      setSaving(false);
    }
  };

  return (
    <div className="page">
      <NavBar title={t('profile.nickname')} />
      <List>
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
      <p className="page-pad muted">{t('profile.nicknameHint')}</p>
      <div className="page-actions">
        <Button block color="primary" loading={saving} onClick={() => void save()}>
          {t('profile.save')}
        </Button>
      </div>
    </div>
  );
}
