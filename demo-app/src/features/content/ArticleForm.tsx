import { Dialog, Input, List, Selector, TextArea } from 'antd-mobile';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { CharCount } from '../../ui/CharCount';
import { ARTICLE_LIMITS, articleProblem, titleProblem } from './articles';
import { useChannels } from './channels';

/**
 * What is wrong with a title, in the spec's words (§5 "Post title 5 to 30 characters", "title must not be less than 5
 * characters"), or undefined: an article's or a video's (`article`), or a circle post's (`post`), each kind with its
 * own messages, as the server refuses them.
 */
export function titleError(title: string, t: TFunction, kind: 'article' | 'post'): string | undefined {
  const problem = titleProblem(title);
  if (problem === 'title_short') return t(`errors.${kind}_title_short`);
  if (problem === 'title_long') return t(`errors.${kind}_title_long`);
  return undefined;
}

/**
 * What is wrong with an article's or a video's title and text, in the spec's words (§5 "Post title 5 to 30 characters
 * ... Text and content cannot be blank"), or undefined.
 */
export function articleTextError(title: string, content: string, t: TFunction): string | undefined {
  const problem = articleProblem(title, content);
  if (problem === 'title_short' || problem === 'title_long') return titleError(title, t, 'article');
  if (problem === 'content') {
    return content.trim() === ''
      ? t('errors.article_content_invalid')
      : t('article.contentLong', { max: ARTICLE_LIMITS.contentMax });
  }
  return undefined;
}

/** The title of an article, a video or a circle post, at most 30 characters: its field, labelled, with the bounds. */
export function TitleField(props: { id: string; value: string; onChange: (title: string) => void }) {
  const { t } = useTranslation();
  return (
    <List>
      <List.Item title={<label htmlFor={props.id}>{t('article.title')}</label>}>
        <Input
          id={props.id}
          value={props.value}
          onChange={props.onChange}
          maxLength={ARTICLE_LIMITS.titleMax}
          placeholder={t('article.titlePlaceholder')}
        />
      </List.Item>
    </List>
  );
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
  const length = [...props.content.trim()].length;
  return (
    <>
      <TitleField id={`${props.id}-title`} value={props.title} onChange={props.onTitle} />
      <List header={<label htmlFor={`${props.id}-content`}>{props.contentLabel}</label>}>
        <List.Item>
          <TextArea
            id={`${props.id}-content`}
            placeholder={props.contentPlaceholder}
            value={props.content}
            onChange={props.onContent}
            autoSize={props.rows}
          />
          <CharCount length={length} max={ARTICLE_LIMITS.contentMax} />
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
