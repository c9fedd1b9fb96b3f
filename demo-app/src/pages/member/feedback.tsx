import { Button, Input, List, TextArea } from 'antd-mobile';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../app/session';
import { errorText } from '../../features/api/errors';
import { ImageGrid } from '../../features/api/ImageGrid';
import { useImageUpload } from '../../features/api/useImageUpload';
import {
  FEEDBACK_CONTENT_MAX,
  FEEDBACK_IMAGES_MAX,
  feedbackProblem,
  submitFeedback,
} from '../../features/member/feedback';
import { CharCount } from '../../ui/CharCount';
import { NavBar } from '../../ui/NavBar';
import { toast, toastError } from '../../ui/toast';
import './feedback.css';

/** The query key of the member's feedback list, which a new feedback makes stale. */
export const FEEDBACK_QUERY = 'member-feedback';

/**
 * Feedback (spec §2 member/feedback, §3, §5): a description of the problem, a contact phone and up to four
 * screenshots, uploaded one at a time as they are picked. "My feedback" in the bar opens what was sent before.
 */
export default function FeedbackPage() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const uploader = useImageUpload();
  const [content, setContent] = useState('');
  const [phone, setPhone] = useState('');
  const [imgs, setImgs] = useState<string[]>([]);
  const [sending, setSending] = useState(false);
  if (!user) return null;
  const context = { token: user.token, locale: i18n.language };
  const uploading = uploader.progress !== undefined;

  const send = async () => {
    const draft = { content, phone, imgs };
    const problem = feedbackProblem(draft);
    if (problem === 'content_empty') return toastError(t('feedback.contentEmpty'));
    if (problem === 'content_too_long') return toastError(t('feedback.contentTooLong', { max: FEEDBACK_CONTENT_MAX }));
    if (problem === 'phone') return toastError(t('feedback.phoneInvalid'));
    setSending(true);
    try {
      await submitFeedback(draft, context);
      await queryClient.invalidateQueries({ queryKey: [FEEDBACK_QUERY] });
      toast(t('feedback.sent'));
      // The list shows what was just sent; back from it returns to where feedback was opened from.
      void navigate('/member/feedback-list', { replace: true });
    } catch (error) {
      toastError(errorText(error, t));
    } finally {
      setSending(false);
    }
  };

  const length = [...content.trim()].length;
  return (
    <div className="page">
      <NavBar
        title={t('feedback.title')}
        right={
          <button type="button" className="feedback-mine" onClick={() => void navigate('/member/feedback-list')}>
            {t('feedback.mine')}
          </button>
        }
      />
      <List header={<label htmlFor="feedback-content">{t('feedback.content')}</label>}>
        <List.Item>
          {/* The TextArea passes on its id but not an aria-label: the header names it. */}
          <TextArea
            id="feedback-content"
            placeholder={t('feedback.contentPlaceholder')}
            value={content}
            onChange={setContent}
            autoSize={{ minRows: 4, maxRows: 10 }}
          />
          <CharCount length={length} max={FEEDBACK_CONTENT_MAX} />
        </List.Item>
      </List>
      <List header={t('feedback.screenshots', { max: FEEDBACK_IMAGES_MAX })}>
        <List.Item>
          <ImageGrid
            uploader={uploader}
            images={imgs}
            onChange={setImgs}
            max={FEEDBACK_IMAGES_MAX}
            labels={{
              image: (n) => t('feedback.screenshot', { n }),
              remove: (n) => t('feedback.removeScreenshot', { n }),
              add: t('feedback.addScreenshot'),
            }}
            progressTestId="feedback-progress"
          />
        </List.Item>
      </List>
      <List header={t('feedback.phone')}>
        <List.Item>
          <Input
            type="tel"
            aria-label={t('feedback.phone')}
            placeholder={t('feedback.phonePlaceholder')}
            value={phone}
            onChange={setPhone}
            clearable
          />
        </List.Item>
      </List>
      <div className="page-actions">
        <Button block color="primary" loading={sending} disabled={uploading} onClick={() => void send()}>
          {t('feedback.send')}
        </Button>
      </div>
    </div>
  );
}
