import { Tabs } from 'antd-mobile';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigateTo } from '../../app/navigation';
import { useChannels } from './channels';

/** The first tab: everything, whatever its channel. */
export const ALL_CHANNELS = '';

/**
 * The viewer's channel tabs (spec §2, article/typeid): "Recommended" for everything, then the viewer's channels in
 * their order, with "Channels" to choose them. Gives the channel shown (`ALL_CHANNELS` for everything: also when the
 * viewer removed the one shown, or the operator did) and the tabs, none while no channel exists.
 */
export function useChannelTabs(): { current: string; tabs: ReactNode } {
  const { t } = useTranslation();
  const open = useNavigateTo();
  const { query } = useChannels();
  const [active, setActive] = useState(ALL_CHANNELS);
  const mine = query.data?.mine ?? [];
  const any = mine.length + (query.data?.more.length ?? 0) > 0;
  const current = mine.some((channel) => channel.id === active) ? active : ALL_CHANNELS;
  const tabs = any && (
    <div className="front-channels">
      <Tabs activeKey={current} onChange={setActive} stretch={false} className="front-tabs">
        <Tabs.Tab key={ALL_CHANNELS} title={t('article.recommended')} />
        {mine.map((channel) => (
          <Tabs.Tab key={channel.id} title={channel.name} />
        ))}
      </Tabs>
      <button type="button" className="feedback-mine front-channels-edit" onClick={() => open('article/typeid')}>
        {t('article.channels')}
      </button>
    </div>
  );
  return { current, tabs };
}
