import { useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, Input, List, Selector, TextArea } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useClosePage } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { ImageGrid } from '../../features/api/ImageGrid';
import { useImageUpload } from '../../features/api/useImageUpload';
import { ARTICLES_QUERY, ARTICLE_LIMITS, articleProblem, publishArticle } from '../../features/content/articles';
import { useChannels } from '../../features/content/channels';
import { NavBar } from '../../ui/NavBar';
import { toastError } from '../../ui/toast';
import './feedback.css';

/**
 * Write an article (spec §2 member/add-article, §4 publishing, §5 "Post title 5 to 30 characters ... Text and content
 * cannot be blank"): the title, the text, up to nine images, each uploaded as it is picked, and a channel if the
 * member picks one (tapping it again picks none). Published, an alert offers to view it.
 */
export default function AddArticle() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const navigate = useNavigate();
  const close = useClosePage();
  const queryClient = useQueryClient();
  const uploader = useImageUpload();
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [imgs, setImgs] = useState<string[]>([]);
  const [typeid, setTypeid] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const channels = useChannels().query.data;
  const choices = channels ? [...channels.mine, ...channels.more] : [];
  if (!user) return null;
  const uploading = uploader.progress !== undefined;

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
    setSending(true);
    let id: string;
    try {
      const draft = { title, content, imgs, typeid };
      id = (await publishArticle(draft, { token: user.token, locale: i18n.language })).id;
    } catch (error) {
      setSending(false);
      return toastError(errorText(error, t));
    }
    await queryClient.invalidateQueries({ queryKey: [ARTICLES_QUERY] });
    const view = await Dialog.confirm({
      content: t('article.published'),
      confirmText: t('article.view'),
      cancelText: t('common.close'),
    });
    if (view) void navigate(`/article/view?id=${encodeURIComponent(id)}`, { replace: true });
    else close();
  };

  const length = [...content.trim()].length;
  return (
    <div className="page">
      <NavBar title={t('article.addTitle')} />
      <List>
        <List.Item title={<label htmlFor="article-title">{t('article.title')}</label>}>
          <Input
            id="article-title"
            value={title}
            onChange={setTitle}
            maxLength={ARTICLE_LIMITS.titleMax}
            placeholder={t('article.titlePlaceholder')}
          />
        </List.Item>
      </List>
      <List header={<label htmlFor="article-content">{t('article.content')}</label>}>
        <List.Item>
          <TextArea
            id="article-content"
            placeholder={t('article.contentPlaceholder')}
            value={content}
            onChange={setContent}
            autoSize={{ minRows: 6, maxRows: 16 }}
          />
          <div className={length > ARTICLE_LIMITS.contentMax ? 'feedback-count feedback-count-over' : 'feedback-count'}>
            {length}/{ARTICLE_LIMITS.contentMax}
          </div>
        </List.Item>
      </List>
      <List header={t('article.images', { max: ARTICLE_LIMITS.imagesMax })}>
        <List.Item>
          <ImageGrid
            uploader={uploader}
            images={imgs}
            onChange={setImgs}
            max={ARTICLE_LIMITS.imagesMax}
            labels={{
              image: (n) => t('article.image', { n }),
              remove: (n) => t('article.removeImage', { n }),
              add: t('article.addImage'),
            }}
            progressTestId="article-progress"
          />
        </List.Item>
      </List>
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
        <Button block color="primary" loading={sending} disabled={uploading} onClick={() => void publish()}>
          {t('article.publish')}
        </Button>
      </div>
    </div>
  );
}
