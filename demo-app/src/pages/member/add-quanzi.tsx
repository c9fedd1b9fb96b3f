import { useQueryClient } from '@tanstack/react-query';
import { Button, Input, List, Selector, TextArea } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useClosePage } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import {
  CIRCLE_LIMITS,
  CIRCLE_QUERY,
  TOPICS_QUERY,
  postProblem,
  publishPost,
  type VoteDraft,
} from '../../features/circle/posts';
import { useTopics } from '../../features/circle/topics';
import { TitleField, titleError } from '../../features/content/ArticleForm';
import { ImageDraftGrid } from '../../features/content/ImageDraftGrid';
import { useImageDraft } from '../../features/content/useImageDraft';
import { VideoFields, useVideoDraft } from '../../features/content/VideoFields';
import { CharCount } from '../../ui/CharCount';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';
import '../../features/circle/circle.css';
import './feedback.css';

/**
 * A new circle post (spec §2 member/add-quanzi, "Post creation: title, text, ..."; §1 "circle posts (images, or a
 * video, or a vote)"; §5 "Post title 5 to 30 characters", "Images, video and vote are mutually exclusive in a post:
 * remove one before adding another"): the title, checked as an article's, the text with up to nine images, shown
 * from the device and uploaded when it is posted (spec §4: one by one, then the post), or with a video and its cover,
 * uploaded when it is posted (spec §4: the video, then the cover, then the post), or with a vote of 2 to 10 options
 * running 1, 3 or 7 days, and a topic if the member picks one (`?topic=` picks one at first). Posted, the page
 * closes.
 */
export default function AddPost() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const close = useClosePage();
  const queryClient = useQueryClient();
  const images = useImageDraft({ max: CIRCLE_LIMITS.imagesMax });
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [vote, setVote] = useState<VoteDraft | undefined>();
  const [withVideo, setWithVideo] = useState(false);
  const video = useVideoDraft();
  const [params] = useSearchParams();
  const [topic, setTopic] = useState<string | undefined>(params.get('topic') ?? undefined);
  const topics = useTopics().data ?? [];
  const [sending, setSending] = useState(false);
  if (!user) return null;
  const busy = sending || images.progress !== undefined || video.progress !== undefined;
  const withImages = images.images.length > 0;
  const exclusive = () => toastError(t('errors.post_media_exclusive'));

  const addVideo = () => {
    if (withImages || busy || vote) return exclusive();
    setWithVideo(true);
  };
  const removeVideo = () => {
    video.setVideo(undefined);
    video.setCover(undefined);
    setWithVideo(false);
  };
  const addVote = () => {
    if (withImages || busy || withVideo) return exclusive();
    setVote({ options: ['', ''], days: CIRCLE_LIMITS.voteDays[0] });
  };
  const setOption = (index: number, text: string) =>
    setVote((draft) => draft && { ...draft, options: draft.options.map((o, i) => (i === index ? text : o)) });

  const publish = async () => {
    const wrongTitle = titleError(title, t, 'post');
    if (wrongTitle !== undefined) return toastError(wrongTitle);
    const problem = postProblem(content, vote);
    if (problem === 'content') {
      return toastError(
        content.trim() === ''
          ? t('errors.post_content_invalid')
          : t('circle.contentLong', { max: CIRCLE_LIMITS.contentMax }),
      );
    }
    if (problem === 'vote') return toastError(t('errors.vote_invalid'));
    let files: { video: string; cover: string } | undefined;
    if (withVideo) {
      if (!video.video) return toastError(t('errors.video_invalid'));
      if (!video.cover) return toastError(t('errors.video_cover_missing'));
      files = await video.upload();
      if (!files) return;
    }
    setSending(true);
    // Images, video and vote exclude each other: with a video or a vote there are no images to upload.
    const imgs = await images.upload();
    if (!imgs) return setSending(false);
    try {
      const chosen = topics.some((item) => item.id === topic) ? topic : undefined;
      const draft = { title, content, imgs, vote, video: files, topic: chosen };
      await publishPost(draft, { token: user.token, locale: i18n.language });
      if (files) video.setProgress(100);
      if (imgs.length > 0) images.setProgress(100);
    } catch (error) {
      setSending(false);
      video.setProgress(undefined);
      images.setProgress(undefined);
      return toastError(errorText(error, t));
    }
    await queryClient.invalidateQueries({ queryKey: [CIRCLE_QUERY] });
    await queryClient.invalidateQueries({ queryKey: [TOPICS_QUERY] });
    toast(t('circle.published'));
    close();
  };

  const length = [...content.trim()].length;
  return (
    <div className="page">
      <NavBar title={t('circle.addTitle')} />
      <TitleField id="post-title" value={title} onChange={setTitle} />
      <List header={<label htmlFor="post-content">{t('circle.content')}</label>}>
        <List.Item>
          <TextArea
            id="post-content"
            placeholder={t('circle.contentPlaceholder')}
            value={content}
            onChange={setContent}
            autoSize={{ minRows: 4, maxRows: 12 }}
          />
          <CharCount length={length} max={CIRCLE_LIMITS.contentMax} />
        </List.Item>
      </List>
      {vote ? (
        <List header={t('circle.vote')}>
          {vote.options.map((option, index) => (
            <List.Item key={index}>
              <div className="vote-option-row">
                <Input
                  aria-label={t('circle.option', { n: index + 1 })}
                  value={option}
                  onChange={(text) => setOption(index, text)}
                  maxLength={CIRCLE_LIMITS.optionMax}
                  placeholder={t('circle.option', { n: index + 1 })}
                />
                {vote.options.length > CIRCLE_LIMITS.optionsMin && (
                  <button
                    type="button"
                    className="feedback-mine"
                    aria-label={t('circle.removeOption', { n: index + 1 })}
                    onClick={() => setVote({ ...vote, options: vote.options.filter((_, i) => i !== index) })}
                  >
                    ×
                  </button>
                )}
              </div>
            </List.Item>
          ))}
          {vote.options.length < CIRCLE_LIMITS.optionsMax && (
            <List.Item onClick={() => setVote({ ...vote, options: [...vote.options, ''] })}>
              {t('circle.addOption')}
            </List.Item>
          )}
          <List.Item title={t('circle.days')}>
            <Selector
              options={CIRCLE_LIMITS.voteDays.map((days) => ({ label: t('circle.day', { count: days }), value: days }))}
              value={[vote.days]}
              onChange={(value) => value[0] !== undefined && setVote({ ...vote, days: value[0] })}
            />
          </List.Item>
          <List.Item onClick={() => setVote(undefined)}>
            <span className="post-vote-mine">{t('circle.removeVote')}</span>
          </List.Item>
        </List>
      ) : withVideo ? (
        <VideoFields draft={video} onRemove={removeVideo} />
      ) : (
        <List header={t('circle.images', { max: CIRCLE_LIMITS.imagesMax })}>
          <List.Item>
            <ImageDraftGrid
              draft={images}
              max={CIRCLE_LIMITS.imagesMax}
              labels={{
                image: (n) => t('circle.image', { n }),
                remove: (n) => t('circle.removeImage', { n }),
                add: t('circle.addImage'),
              }}
              progressTestId="post-progress"
            />
          </List.Item>
          <List.Item onClick={addVideo}>{t('circle.addVideo')}</List.Item>
          <List.Item onClick={addVote}>{t('circle.addVote')}</List.Item>
        </List>
      )}
      {(vote || withVideo) && (
        <List>
          <List.Item onClick={exclusive}>{t('circle.addImage')}</List.Item>
          {vote ? (
            <List.Item onClick={exclusive}>{t('circle.addVideo')}</List.Item>
          ) : (
            <List.Item onClick={exclusive}>{t('circle.addVote')}</List.Item>
          )}
        </List>
      )}
      {topics.length > 0 && (
        <List header={t('circle.topic')}>
          <List.Item>
            <Selector
              options={topics.map((item) => ({ label: `#${item.title}#`, value: item.id }))}
              value={topic === undefined ? [] : [topic]}
              onChange={(value) => setTopic(value[0])}
            />
          </List.Item>
        </List>
      )}
      <div className="page-actions">
        <Button block color="primary" loading={busy} onClick={() => void publish()}>
          {t('circle.publish')}
        </Button>
      </div>
    </div>
  );
}
