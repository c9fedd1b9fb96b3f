import { Avatar, Button } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClosePage } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { UploadProgress, useImagePicker } from '../../features/api/ImagePicker';
import { AvatarCropper } from '../../features/member/AvatarCropper';
import { updateProfile } from '../../features/member/profile';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';
import '../member/sz-user.css';

/**
 * The avatar cropper as a page of its own (spec §2 "an avatar-cropper page also exists"): the member's avatar, a
 * picture picked from the device in the cropper's round frame, and the square chosen there uploaded and saved as the
 * new avatar, after which the page closes. Needs the member signed in.
 */
export default function AvatarCropperPage() {
  const { t, i18n } = useTranslation();
  const { user, refresh } = useSession();
  const close = useClosePage();
  // A picked picture, in the cropper until the member chooses its square.
  const [cropping, setCropping] = useState<File | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const { progress, pick, upload, input } = useImagePicker({ testId: 'avatar-picker', onPicked: setCropping });

  if (!user) return null;

  const use = async (cropped: File) => {
    setCropping(undefined);
    const url = await upload(cropped);
    if (url === undefined) return;
    setSaving(true);
    try {
      const { id: _id, ...profile } = await updateProfile({ img: url }, { token: user.token, locale: i18n.language });
      refresh(profile, null);
      toast(t('profile.saved'));
      close();
    } catch (error) {
      toastError(errorText(error, t));
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="page">
      <NavBar title={t('profile.changeAvatar')} />
      <div className="avatar-page">
        <Avatar src={user.img ?? ''} className="avatar-page-current" data-testid="profile-avatar" />
        <UploadProgress percent={progress} testId="avatar-progress" />
        <Button block color="primary" loading={saving} disabled={progress !== undefined} onClick={pick}>
          {t('profile.pickAvatar')}
        </Button>
      </div>
      {input}
      {cropping && (
        <AvatarCropper file={cropping} onCancel={() => setCropping(undefined)} onCropped={(file) => void use(file)} />
      )}
    </div>
  );
}
