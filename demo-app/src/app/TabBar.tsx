import { TabBar as MobileTabBar } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { userTabBadge } from '../features/im/badge';
import { TAB_PATHS } from './navigation';

/** Label keys of the five tabs, in order; the first two change outside app-show mode (spec §1). */
function tabLabels(appShow: boolean) {
  return [
    appShow ? 'tab.front' : 'tab.latest',
    appShow ? 'tab.video' : 'tab.hot',
    'tab.shop',
    'tab.circle',
    'tab.mine',
  ];
}

const ICONS = ['▤', '▶', '◈', '◎', '☺'];

/** Props of {@link TabBar}. */
export interface TabBarProps {
  /** App-show mode: "front page" and "video" labels rather than "latest" and "hot". */
  appShow: boolean;
  /** Unread messages, for the user tab's badge. */
  unreadMessages: number;
  /** Unread notifications (member_notify_badge), for the user tab's badge. */
  notifications: number;
}

/** The bottom tab bar of the five tab pages. */
export function TabBar({ appShow, unreadMessages, notifications }: TabBarProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const active = TAB_PATHS.find((p) => location.pathname === `/${p}`) ?? TAB_PATHS[0];
  const labels = tabLabels(appShow);
  const badge = userTabBadge(unreadMessages, notifications);
  return (
    <nav className="app-tabbar" aria-label="tabs">
      <MobileTabBar activeKey={active} onChange={(key) => void navigate(`/${key}`, { replace: true })}>
        {TAB_PATHS.map((path, index) => (
          <MobileTabBar.Item
            key={path}
            icon={<span aria-hidden="true">{ICONS[index]}</span>}
            title={t(labels[index] ?? '')}
            badge={path === 'pages/user/index' ? badge : undefined}
          />
        ))}
      </MobileTabBar>
    </nav>
  );
}
