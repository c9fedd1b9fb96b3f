import { Button, ErrorBlock, List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../app/session';
import { usePagedList } from '../../features/api/paged';
import { PagedList } from '../../features/api/PagedList';
import { relativeTime } from '../../features/im/time';
import { useNow } from '../../features/im/useNow';
import { feedbackPage } from '../../features/member/feedback';
import { NavBar } from '../../ui/NavBar';
import { FEEDBACK_QUERY } from './feedback';
import './feedback.css';

/** My feedback (spec §2 member/feedback-list): what the member sent, newest first, twenty at a time. */
export default function FeedbackListPage() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const navigate = useNavigate();
  const now = useNow();
  const context = { token: user?.token, locale: i18n.language };
  const list = usePagedList([FEEDBACK_QUERY, user?.id], (before) => feedbackPage(before, context), user !== null);
  if (!user) return null;

  return (
    <div className="page">
      <NavBar title={t('feedback.mine')} />
      <PagedList
        list={list}
        empty={
          <ErrorBlock status="empty" title={t('feedback.none')} description="">
            <Button color="primary" onClick={() => void navigate('/member/feedback')}>
              {t('feedback.title')}
            </Button>
          </ErrorBlock>
        }
      >
        {(items) => (
          <List>
            {items.map((item) => (
              <List.Item
                key={item.id}
                description={relativeTime(item.created_at, now, t, i18n.language)}
                data-testid="feedback-item"
              >
                <div className="feedback-item-text">{item.content}</div>
                {item.imgs.length > 0 && (
                  <div className="feedback-item-images">
                    {item.imgs.map((url, index) => (
                      <img
                        key={`${url}-${index}`}
                        className="feedback-thumb feedback-thumb-small"
                        src={url}
                        alt={t('feedback.screenshot', { n: index + 1 })}
                      />
                    ))}
                  </div>
                )}
              </List.Item>
            ))}
          </List>
        )}
      </PagedList>
    </div>
  );
}
