import { useQueryClient } from '@tanstack/react-query';
import { Button, List } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useClosePage } from '../../app/navigation';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { ARTICLES_QUERY, ARTICLE_LIMITS, publishArticle } from '../../features/content/articles';
import { ArticleTextFields, ChannelChoice, articleTextError, offerToView } from '../../features/content/ArticleForm';
import { ImageDraftGrid } from '../../features/content/ImageDraftGrid';
import { useImageDraft } from '../../features/content/useImageDraft';
import { NavBar } from '../../ui/NavBar';
import { toastError } from '../../ui/toast';
import './feedback.css';

/**
 * Write an article (spec §2 member/add-article; §4 "images are uploaded one by one, then the article is posted ...
 * images 10 per image ... On success an alert offers 'view content'"; §5 "Post title 5 to 30 characters ... Text and
 * content cannot be blank"): the title, the text, up to nine images, shown from the device and uploaded on Publish,
 * and a channel if the member picks one (tapping it again picks none). Published, an alert offers to view it.
 */
export default function AddArticle() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const navigate = useNavigate();
  const close = useClosePage();
  const queryClient = useQueryClient();
  const images = useImageDraft({ max: ARTICLE_LIMITS.imagesMax });
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [typeid, setTypeid] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  if (!user) return null;
  const busy = sending || images.progress !== undefined;

  const publish = async () => {
    const wrong = articleTextError(title, content, t);
    if (wrong !== undefined) return toastError(wrong);
    setSending(true);
    const imgs = await images.upload();
    if (!imgs) return setSending(false);
    let id: string;
    try {
      const draft = { title, content, imgs, typeid };
      id = (await publishArticle(draft, { token: user.token, locale: i18n.language })).id;
    } catch (error) {
      setSending(false);
      images.setProgress(undefined);
      return toastError(errorText(error, t));
    }
    if (imgs.length > 0) images.setProgress(100);
    await queryClient.invalidateQueries({ queryKey: [ARTICLES_QUERY] });
    if (await offerToView(t)) void navigate(`/article/view?id=${encodeURIComponent(id)}`, { replace: true });
    else close();
  };

  return (
    <div className="page">
      <NavBar title={t('article.addTitle')} />
      <ArticleTextFields
        id="article"
        title={title}
        onTitle={setTitle}
        content={content}
        onContent={setContent}
        contentLabel={t('article.content')}
        contentPlaceholder={t('article.contentPlaceholder')}
        rows={{ minRows: 6, maxRows: 16 }}
      />
      <List header={t('article.images', { max: ARTICLE_LIMITS.imagesMax })}>
        <List.Item>
          <ImageDraftGrid
            draft={images}
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
      <ChannelChoice value={typeid} onChange={setTypeid} />
      <div className="page-actions">
        <Button block color="primary" loading={busy} onClick={() => void publish()}>
          {t('article.publish')}
        </Button>
      </div>
    </div>
  );
}
