import { ActionSheet, Avatar, Input, List, ProgressBar } from 'antd-mobile';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { useUploadFile } from '../../features/api/upload';
import type { Gender } from '../../features/member/api';
import { AvatarCropper } from '../../features/member/AvatarCropper';
import {
  BIRTHDAY_MIN,
  REGION_MAX_LENGTH,
  isProductImage,
  today,
  updateProfile,
  type ProfileChanges,
} from '../../features/member/profile';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';
import './sz-user.css';

const GENDERS: readonly Gender[] = ['male', 'female', 'hidden'];

/** Which picture an upload replaces. */
type Picture = 'img' | 'background';

/**
 * Edit info (spec §2 member/sz-user, §3 profile labels): the avatar (cropped to a square in the avatar cropper) and
 * the background, uploaded with progress; the
 * nickname and the signature, each on its own page; gender from a sheet, birthday from the system's date picker and
 * the region in place, each saved as it is chosen.
 */
export default function ProfileSettings() {
  const { t, i18n } = useTranslation();
  const { user, refresh } = useSession();
  const open = useNavigateTo();
  const upload = useUploadFile();
  const pickers = { img: useRef<HTMLInputElement>(null), background: useRef<HTMLInputElement>(null) };
  const [uploading, setUploading] = useState<{ picture: Picture; progress: number } | undefined>(undefined);
  const [region, setRegion] = useState(user?.region ?? '');
  const [genders, setGenders] = useState(false);
  // A picked avatar, in the cropper until the member chooses its square.
  const [cropping, setCropping] = useState<File | undefined>(undefined);
  const pending = useRef<AbortController | undefined>(undefined);

  // Leaving the page stops an upload in flight.
  useEffect(() => () => pending.current?.abort(), []);

  if (!user) return null;
  const context = { token: user.token, locale: i18n.language };
  const notSet = t('profile.notSet');

  /** Saves `changes`, then keeps the stored user as the server answered; true when saved. */
  const save = async (changes: ProfileChanges): Promise<boolean> => {
    try {
      const saved = await updateProfile(changes, context);
      const { id: _id, ...profile } = saved;
      refresh(profile, null);
      toast(t('profile.saved'));
      return true;
    } catch (error) {
      toastError(errorText(error, t));
      return false;
    }
  };

  const changePicture = (picture: Picture, event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!isProductImage(file)) return toastError(t('profile.imageOnly'));
    // The avatar is cropped to a square first; the background goes as it is.
    if (picture === 'img') setCropping(file);
    else void uploadPicture(picture, file);
  };

  const uploadPicture = async (picture: Picture, file: File) => {
    const controller = new AbortController();
    pending.current = controller;
    setUploading({ picture, progress: 0 });
    try {
      const url = await upload(file, {
        onProgress: (progress) => setUploading({ picture, progress }),
        signal: controller.signal,
      });
      await save(picture === 'img' ? { img: url } : { background: url });
    } catch (error) {
      if (!controller.signal.aborted) toastError(errorText(error, t));
    } finally {
      if (pending.current === controller) pending.current = undefined;
      if (!controller.signal.aborted) setUploading(undefined);
    }
  };

  const saveRegion = async () => {
    const next = region.trim();
    if (next === (user.region ?? '')) return;
    if ([...next].length > REGION_MAX_LENGTH) return toastError(t('profile.regionTooLong', { max: REGION_MAX_LENGTH }));
    if (!(await save({ region: next }))) setRegion(user.region ?? '');
  };

  /** The row of a picture: the image at the end, progress while one uploads. */
  const pictureRow = (picture: Picture, label: string, action: string) => {
    const busy = uploading?.picture === picture;
    const src = picture === 'img' ? user.img : user.background;
    return (
      <List.Item
        onClick={uploading ? undefined : () => pickers[picture].current?.click()}
        extra={
          picture === 'img' ? (
            <Avatar src={src ?? ''} className="profile-avatar" data-testid="profile-avatar" />
          ) : src ? (
            <img className="profile-background" src={src} alt={label} data-testid="profile-background" />
          ) : (
            notSet
          )
        }
        description={
          busy ? (
            <div className="profile-progress" data-testid="profile-progress">
              <ProgressBar percent={uploading.progress} />
              <span>{t('profile.uploading', { percent: uploading.progress })}</span>
            </div>
          ) : (
            action
          )
        }
      >
        {label}
      </List.Item>
    );
  };

  return (
    <div className="page">
      <NavBar title={t('profile.title')} />
      <List>
        {pictureRow('img', t('profile.avatar'), t('profile.changeAvatar'))}
        {pictureRow('background', t('profile.background'), t('profile.changeBackground'))}
      </List>
      {(['img', 'background'] as const).map((picture) => (
        <input
          key={picture}
          ref={pickers[picture]}
          type="file"
          accept="image/jpeg,image/png,image/gif,.jpg,.jpeg,.png,.gif"
          aria-label={picture === 'img' ? t('profile.changeAvatar') : t('profile.changeBackground')}
          hidden
          onChange={(event) => changePicture(picture, event)}
        />
      ))}
      {cropping && (
        <AvatarCropper
          file={cropping}
          onCancel={() => setCropping(undefined)}
          onCropped={(cropped) => {
            setCropping(undefined);
            void uploadPicture('img', cropped);
          }}
        />
      )}
      <List>
        <List.Item onClick={() => open('member/sz-nickname')} extra={user.username}>
          {t('profile.nickname')}
        </List.Item>
        <List.Item
          onClick={() => open('member/sz-qianming')}
          extra={<span className="profile-extra">{user.qianming || notSet}</span>}
        >
          {t('profile.signature')}
        </List.Item>
        <List.Item onClick={() => setGenders(true)} extra={t(`profile.gender_${user.gender ?? 'hidden'}`)}>
          {t('profile.gender')}
        </List.Item>
        <List.Item
          extra={
            <input
              type="date"
              className="profile-date"
              aria-label={t('profile.birthday')}
              min={BIRTHDAY_MIN}
              max={today()}
              value={user.birthday ?? ''}
              onChange={(event) => void save({ birthday: event.target.value })}
            />
          }
        >
          {t('profile.birthday')}
        </List.Item>
        <List.Item
          extra={
            <Input
              className="profile-region"
              aria-label={t('profile.region')}
              placeholder={notSet}
              value={region}
              onChange={setRegion}
              onBlur={() => void saveRegion()}
              onEnterPress={() => void saveRegion()}
            />
          }
        >
          {t('profile.region')}
        </List.Item>
      </List>
      <ActionSheet
        visible={genders}
        onClose={() => setGenders(false)}
        cancelText={t('common.cancel')}
        actions={GENDERS.map((gender) => ({ key: gender, text: t(`profile.gender_${gender}`) }))}
        onAction={(action) => {
          setGenders(false);
          const gender = action.key as Gender;
          if (gender !== (user.gender ?? 'hidden')) void save({ gender });
        }}
      />
    </div>
  );
}
