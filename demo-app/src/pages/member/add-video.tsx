import { useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, Input, List, Selector, TextArea } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useClosePage } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { ARTICLES_QUERY, ARTICLE_LIMITS, articleProblem } from '../../features/content/articles';
import { useChannels } from '../../features/content/channels';
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
  const channels = useChannels().query.data;
  const choices = channels ? [...channels.mine, ...channels.more] : [];
  if (!user) return null;
  const busy = draft.progress !== undefined;

  const publish = async () => {
    const problem = articleProblem(title, content);
    if (problem === 'title_short') return toastError(t('errors.article_title_short'));
    if (problem === 'title_long') return toastError(t('errors.article_title_long'));
    if (problem === 'content') {
      return toastError(
        content.trim() === ''
          ? t('errors.article_content_invalid')
          : t('article.contentLong', { max: ARTICLE_LIMITS.contentMax }),
      );
    }
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
    const view = await Dialog.confirm({
      content: t('article.published'),
      confirmText: t('article.view'),
      cancelText: t('common.close'),
    });
    if (view) void navigate(`/video/view?id=${encodeURIComponent(id)}`, { replace: true });
    else close();
  };

  const length = [...content.trim()].length;
  return (
    <div className="page">
      <NavBar title={t('videoAdd.title')} />
      <List>
        <List.Item title={<label htmlFor="video-title">{t('article.title')}</label>}>
          <Input
            id="video-title"
            value={title}
            onChange={setTitle}
            maxLength={ARTICLE_LIMITS.titleMax}
            placeholder={t('article.titlePlaceholder')}
          />
        </List.Item>
      </List>
      <List header={<label htmlFor="video-content">{t('videoAdd.content')}</label>}>
        <List.Item>
          <TextArea
            id="video-content"
            placeholder={t('videoAdd.contentPlaceholder')}
            value={content}
            onChange={setContent}
            autoSize={{ minRows: 4, maxRows: 12 }}
          />
          <div className={length > ARTICLE_LIMITS.contentMax ? 'feedback-count feedback-count-over' : 'feedback-count'}>
            {length}/{ARTICLE_LIMITS.contentMax}
          </div>
        </List.Item>
      </List>
      <VideoFields draft={draft} />
      {choices.length > 0 && (
        <List header={t('article.channel')}>
          <List.Item>
            <Selector
              options={choices.map((channel) => ({ label: channel.name, value: channel.id }))}
              value={typeid === undefined ? [] : [typeid]}
              onChange={(value) => setTypeid(value[0])}
            />
          </List.Item>
        </List>
      )}
      <div className="page-actions">
        <Button block color="primary" loading={busy} onClick={() => void publish()}>
          {t('article.publish')}
        </Button>
      </div>
    </div>
  );
}
