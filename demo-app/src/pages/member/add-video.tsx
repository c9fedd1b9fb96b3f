import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useClosePage } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { ARTICLES_QUERY } from '../../features/content/articles';
import { ArticleTextFields, ChannelChoice, articleTextError, offerToView } from '../../features/content/ArticleForm';
import { VideoFields, useVideoDraft } from '../../features/content/VideoFields';
import { publishVideo } from '../../features/content/videos';
import { NavBar } from '../../ui/NavBar';
import { toastError } from '../../ui/toast';
import './feedback.css';

/**
 * Publish a video (spec §2 member/add-video; §4 "A video is uploaded first, then its cover, then the post. Progress
 * ... video 70, cover 20 ... On success an alert offers 'view content' ... On an upload failure an alert is shown and
 * progress jumps to 100"; §5 title 5 to 30 characters, text not blank, "A video cover is required", video types and
 * 30 MiB): the title, the text, a video and its cover, picked here and uploaded on Publish, and a channel if the
 * member picks one. What was uploaded is kept, so publishing again after a failure uploads only what is missing;
 * leaving the page stops an upload.
 */
export default function AddVideo() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const navigate = useNavigate();
  const close = useClosePage();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [typeid, setTypeid] = useState<string | undefined>();
  const draft = useVideoDraft();
  if (!user) return null;
  const busy = draft.progress !== undefined;

  const publish = async () => {
    const wrong = articleTextError(title, content, t);
    if (wrong !== undefined) return toastError(wrong);
    if (!draft.video) return toastError(t('errors.video_invalid'));
    if (!draft.cover) return toastError(t('errors.video_cover_missing'));
    const files = await draft.upload();
    if (!files) return;
    let id: string;
    try {
      id = await publishVideo({ title, content, typeid, ...files }, { token: user.token, locale: i18n.language });
    } catch (error) {
      draft.setProgress(undefined);
      return toastError(errorText(error, t));
    }
    draft.setProgress(100);
    await queryClient.invalidateQueries({ queryKey: [ARTICLES_QUERY] });
    if (await offerToView(t)) void navigate(`/video/view?id=${encodeURIComponent(id)}`, { replace: true });
    else close();
  };

  return (
    <div className="page">
      <NavBar title={t('videoAdd.title')} />
      <ArticleTextFields
        id="video"
        title={title}
        onTitle={setTitle}
        content={content}
        onContent={setContent}
        contentLabel={t('videoAdd.content')}
        contentPlaceholder={t('videoAdd.contentPlaceholder')}
        rows={{ minRows: 4, maxRows: 12 }}
      />
      <VideoFields draft={draft} />
      <ChannelChoice value={typeid} onChange={setTypeid} />
      <div className="page-actions">
        <Button block color="primary" loading={busy} onClick={() => void publish()}>
          {t('article.publish')}
        </Button>
      </div>
    </div>
  );
}
