// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { userTabBadge } from '../features/im/badge';
import { renderApp } from '../test-utils';
import { TabBar } from './TabBar';

afterEach(cleanup);

describe('tab bar', () => {
  it('shows the five tabs in order with "front page" and "video" in app-show mode', () => {
    renderApp(<TabBar appShow unreadMessages={0} notifications={0} />, { path: '/pages/article/index' });
    const titles = [...document.querySelectorAll('.adm-tab-bar-item-title')].map((e) => e.textContent);
    expect(titles).toEqual(['Home', 'Video', 'Shop', 'Circle', 'Me']);
  });

  it('reads "latest" and "hot" for the first two tabs outside app-show mode', () => {
    renderApp(<TabBar appShow={false} unreadMessages={0} notifications={0} />, { language: 'zh-CN' });
    const titles = [...document.querySelectorAll('.adm-tab-bar-item-title')].map((e) => e.textContent);
    expect(titles).toEqual(['最新', '热门', '商城', '圈子', '我的']);
  });

  it('badges the user tab with unread messages plus notifications', () => {
    renderApp(<TabBar appShow unreadMessages={3} notifications={2} />);
    const items = document.querySelectorAll('.adm-tab-bar-item');
    expect(items[4]?.querySelector('.adm-badge-content')?.textContent).toBe('5');
    expect(items[0]?.querySelector('.adm-badge-content')).toBeNull();
    expect(screen.getByText('Me')).toBeTruthy();
  });

  it('sums the badge, hides it at zero and caps it at 99+', () => {
    expect(userTabBadge(3, 2)).toBe('5');
    expect(userTabBadge(0, 0)).toBeUndefined();
    expect(userTabBadge(0, 4)).toBe('4');
    expect(userTabBadge(90, 10)).toBe('99+');
  });
});
