import { Dialog, Input, List, Selector, TextArea } from 'antd-mobile';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ARTICLE_LIMITS, articleProblem } from './articles';
import { useChannels } from './channels';

/**
 * What is wrong with an article's or a video's title and text, in the spec's words (§5 "Post title 5 to 30 characters
 * ... Text and content cannot be blank"), or undefined.
 */
export function articleTextError(title: string, content: string, t: TFunction): string | undefined {
  const problem = articleProblem(title, content);
  if (problem === 'title_short') return t('errors.article_title_short');
  if (problem === 'title_long') return t('errors.article_title_long');
  if (problem === 'content') {
    return content.trim() === ''
      ? t('errors.article_content_invalid')
      : t('article.contentLong', { max: ARTICLE_LIMITS.contentMax });
  }
  return undefined;
}

/** The title and the text of an article or a video, the text with its count (over the most in red). */
export function ArticleTextFields(props: {
  /** Makes the fields' ids: `<id>-title`, `<id>-content`. */
  id: string;
  title: string;
  onTitle: (title: string) => void;
  content: string;
  onContent: (content: string) => void;
  contentLabel: string;
  contentPlaceholder: string;
  rows: { minRows: number; maxRows: number };
}) {
  const { t } = useTranslation();
  const length = [...props.content.trim()].length;
  return (
    <>
      <List>
        <List.Item title={<label htmlFor={`${props.id}-title`}>{t('article.title')}</label>}>
          <Input
            id={`${props.id}-title`}
            value={props.title}
            onChange={props.onTitle}
            maxLength={ARTICLE_LIMITS.titleMax}
            placeholder={t('article.titlePlaceholder')}
          />
        </List.Item>
      </List>
      <List header={<label htmlFor={`${props.id}-content`}>{props.contentLabel}</label>}>
        <List.Item>
          <TextArea
            id={`${props.id}-content`}
            placeholder={props.contentPlaceholder}
            value={props.content}
            onChange={props.onContent}
            autoSize={props.rows}
          />
          <div className={length > ARTICLE_LIMITS.contentMax ? 'feedback-count feedback-count-over' : 'feedback-count'}>
            {length}/{ARTICLE_LIMITS.contentMax}
          </div>
        </List.Item>
      </List>
    </>
  );
}

/** The channels to file an article or a video under, when there are any; a second tap picks none. */
export function ChannelChoice({ value, onChange }: { value: string | undefined; onChange: (id?: string) => void }) {
  const { t } = useTranslation();
  const channels = useChannels().query.data;
  const choices = channels ? [...channels.mine, ...channels.more] : [];
  if (choices.length === 0) return null;
  return (
    <List header={t('article.channel')}>
      <List.Item>
        <Selector
          options={choices.map((channel) => ({ label: channel.name, value: channel.id }))}
          value={value === undefined ? [] : [value]}
          onChange={(picked) => onChange(picked[0])}
        />
      </List.Item>
    </List>
  );
}

/** The alert once published (spec §4 "On success an alert offers 'view content'"): true when the member asks to. */
export function offerToView(t: TFunction): Promise<boolean> {
  return Dialog.confirm({
    content: t('article.published'),
    confirmText: t('article.view'),
    cancelText: t('common.close'),
  });
}
