// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderApp, shows, step, Where } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import UserIndex from '../user/index';
import Find from './find';

const topic = (n: number, posts: number) => ({ id: `t${n}`, title: `Topic ${n}`, intro: '', img: '', posts });
let topics = [topic(1, 9), topic(2, 4)];
const api = setupServer(http.post('*/index.php/api/topic/index', () => HttpResponse.json({ ret: topics })));

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  topics = [topic(1, 9), topic(2, 4)];
});
afterEach(() => cleanup());
afterAll(() => api.close());

const open = () =>
  renderApp(
    <Routes>
      <Route path="/article/find" element={<Find />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { path: '/article/find' },
  );

describe('article/find: discover', () => {
  it('shows the topics with the most posts, each opening its posts', async () => {
    topics = Array.from({ length: 8 }, (_, i) => topic(i + 1, 20 - i));
    open();
    await shows('#Topic 1#');
    expect(screen.getAllByTestId('find-topic')).toHaveLength(6);
    expect(screen.getByText('20 posts')).toBeTruthy();
    await step(() => fireEvent.click(screen.getByText('#Topic 2#')));
    expect(screen.getByTestId('where').textContent).toBe('/topic/list?id=t2');
  });

  it('opens the search, and each way in to what the tabs do not show', async () => {
    open();
    await shows('Discover');
    await step(() => fireEvent.click(screen.getByTestId('find-search')));
    expect(screen.getByTestId('where').textContent).toBe('/search/index');
    const ways: Array<[string, string]> = [
      // Live needs a member (spec §2's navigation rules): a visitor signs in first.
      ['Live', '/user/login?redirect=%2Flive%2Findex'],
      ['Short videos', '/svideo/index'],
      ['All topics', '/topic/index'],
      ['Find friends', '/user/user_list'],
      ['Weather', '/public/tianqi'],
      ['Epidemic', '/public/yiqing'],
    ];
    for (const [label, path] of ways) {
      cleanup();
      open();
      await shows(label);
      await step(() => fireEvent.click(screen.getByText(label)));
      expect(screen.getByTestId('where').textContent, label).toBe(path);
    }
  });

  it('says when there are no topics yet', async () => {
    topics = [];
    open();
    await shows('No topics yet');
  });

  it('is on the user tab', async () => {
    renderApp(
      <>
        <UserIndex />
        <Where />
      </>,
      { path: '/pages/user/index' },
    );
    await step(() => fireEvent.click(screen.getByText('Discover')));
    expect(screen.getByTestId('where').textContent).toBe('/article/find');
  });
});
