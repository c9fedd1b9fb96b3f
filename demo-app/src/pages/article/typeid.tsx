import { List } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../features/api/errors';
import { QueryView } from '../../features/api/QueryView';
import { useChannels, type Channel } from '../../features/content/channels';
import { NavBar } from '../../ui/NavBar';
import { toastError } from '../../ui/toast';
import '../../features/content/articles.css';

/**
 * Channel management (spec §2 article/typeid, §5 "At least one channel must remain"): the front page's channels in
 * order, each removed with × or moved forward with ←, and the other channels, each added with a tap. A member's
 * choice is kept by the server, a visitor's on this device; each change is saved at once.
 */
export default function ChannelPage() {
  const { t } = useTranslation();
  const { query, save } = useChannels();
  const [saving, setSaving] = useState(false);

  const change = async (ids: string[]) => {
    setSaving(true);
    try {
      await save(ids);
    } catch (error) {
      toastError(errorText(error, t));
      // What the server keeps may differ from what this page shows (a channel removed meanwhile).
      void query.refetch();
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="page">
      <NavBar title={t('article.channelsTitle')} />
      <QueryView query={query}>
        {({ mine, more }) => {
          const ids = mine.map((channel) => channel.id);
          const remove = (channel: Channel) => {
            if (mine.length === 1) return toastError(t('errors.channel_last'));
            void change(ids.filter((id) => id !== channel.id));
          };
          const forward = (index: number) => {
            const next = [...ids];
            [next[index - 1], next[index]] = [next[index] as string, next[index - 1] as string];
            void change(next);
          };
          if (mine.length + more.length === 0) {
            return <p className="channel-empty">{t('article.noChannels')}</p>;
          }
          return (
            <>
              <List header={t('article.myChannels')}>
                <div className="channel-chips" data-testid="my-channels">
                  {mine.map((channel, index) => (
                    <span key={channel.id} className="channel-chip">
                      {index > 0 && (
                        <button
                          type="button"
                          disabled={saving}
                          aria-label={t('article.moveChannel', { name: channel.name })}
                          onClick={() => forward(index)}
                        >
                          ←
                        </button>
                      )}
                      {channel.name}
                      <button
                        type="button"
                        disabled={saving}
                        aria-label={t('article.removeChannel', { name: channel.name })}
                        onClick={() => remove(channel)}
                      >
                        ×
                      </button>
                    </span>
                  ))}
                </div>
              </List>
              <List header={t('article.moreChannels')}>
                <div className="channel-chips" data-testid="more-channels">
                  {more.length === 0 && <span className="channel-empty">{t('article.noMoreChannels')}</span>}
                  {more.map((channel) => (
                    <button
                      key={channel.id}
                      type="button"
                      disabled={saving}
                      className="channel-chip channel-chip-add"
                      aria-label={t('article.addChannel', { name: channel.name })}
                      onClick={() => void change([...ids, channel.id])}
                    >
                      + {channel.name}
                    </button>
                  ))}
                </div>
              </List>
            </>
          );
        }}
      </QueryView>
    </div>
  );
}
