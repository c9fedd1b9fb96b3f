import { Button, List, TextArea } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClosePage } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { QIANMING_MAX_LENGTH, updateProfile } from '../../features/member/profile';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';

/** The signature, or brief introduction (spec §2 member/sz-qianming): at most 60 characters; empty clears it. */
export default function SignatureSettings() {
  const { t, i18n } = useTranslation();
  const { user, refresh } = useSession();
  const close = useClosePage();
  const [text, setText] = useState(user?.qianming ?? '');
  const [saving, setSaving] = useState(false);
  if (!user) return null;

  const save = async () => {
    // One line: the signature shows under the name.
    const qianming = text.replace(/\s+/g, ' ').trim();
    if ([...qianming].length > QIANMING_MAX_LENGTH) {
      return toastError(t('profile.signatureTooLong', { max: QIANMING_MAX_LENGTH }));
    }
    setSaving(true);
    try {
      const saved = await updateProfile({ qianming }, { token: user.token, locale: i18n.language });
      refresh({ qianming: saved.qianming }, null);
      toast(t('profile.saved'));
      close();
    } catch (error) {
      toastError(errorText(error, t));
      setSaving(false);
    }
  };

  return (
    <div className="page">
      <NavBar title={t('profile.signature')} />
      <List header={<label htmlFor="profile-signature">{t('profile.signature')}</label>}>
        <List.Item>
          {/* The TextArea passes on its id but not an aria-label: the header names it. */}
          <TextArea
            id="profile-signature"
            placeholder={t('profile.signaturePlaceholder')}
            value={text}
            onChange={setText}
            showCount={(length) => `${length}/${QIANMING_MAX_LENGTH}`}
            autoSize={{ minRows: 2, maxRows: 4 }}
          />
        </List.Item>
      </List>
      <div className="page-actions">
        <Button block color="primary" loading={saving} onClick={() => void save()}>
          {t('profile.save')}
        </Button>
      </div>
    </div>
  );
}
