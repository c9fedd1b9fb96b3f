// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOME_PATH } from '../../app/navigation';
import { renderApp, shows, step, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import NicknameSettings from './sz-nickname';
import SignatureSettings from './sz-qianming';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '', qianming: 'Hello' };

const updates: Array<Record<string, unknown>> = [];
let refusal: { err: string; code: string } | undefined;
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/member/profile_update', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    updates.push(body);
    if (refusal) return HttpResponse.json(refusal);
    const stored = JSON.parse(localStorage.getItem('user') ?? '{}') as Record<string, unknown>;
    return HttpResponse.json({
      ret: {
        id: stored['id'],
        username: body['username'] ?? stored['username'],
        img: '',
        gender: 'hidden',
        birthday: '',
        region: '',
        qianming: body['qianming'] ?? stored['qianming'],
        background: '',
      },
    });
  }),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  updates.length = 0;
  refusal = undefined;
});
afterEach(() => cleanup());
afterAll(() => api.close());

const storedUser = () => JSON.parse(localStorage.getItem('user') ?? '{}') as Record<string, unknown>;

/** `page` at `path`, and home, where closing the page leads when it was opened first. */
function renderPage(page: ReactNode, path: string, language: 'en' | 'zh-CN' = 'en') {
  return renderApp(
    <Routes>
      <Route path={path} element={page} />
      <Route path={HOME_PATH} element={<p>home page</p>} />
    </Routes>,
    { path, language },
  );
}

describe('member/sz-nickname', () => {
  it('checks the nickname, saves it trimmed, updates the stored user and closes', async () => {
    renderPage(<NicknameSettings />, '/member/sz-nickname', 'zh-CN');
    const input = screen.getByRole<HTMLInputElement>('textbox', { name: '昵称' });
    expect(input.value).toBe('Alice');
    expect(screen.getByText('昵称每月只能修改一次')).toBeTruthy();
    const save = () => step(() => fireEvent.click(screen.getByRole('button', { name: '保存' })));

    fireEvent.change(input, { target: { value: '   ' } });
    await save();
    await shows('昵称不能为空');
    fireEvent.change(input, { target: { value: '名'.repeat(21) } });
    await save();
    await shows('昵称不能超过 20 个字符');
    expect(updates).toEqual([]);

    fireEvent.change(input, { target: { value: '  小明  ' } });
    await save();
    await shows('已保存');
    expect(updates).toEqual([expect.objectContaining({ token: USER.token, username: '小明' })]);
    expect(storedUser()['username']).toBe('小明');
    await shows('home page');
  });

  it("shows the server's refusal and stays", async () => {
    refusal = { err: 'do not operate frequently', code: 'nickname_too_soon' };
    renderPage(<NicknameSettings />, '/member/sz-nickname');
    fireEvent.change(screen.getByRole('textbox', { name: 'Nickname' }), { target: { value: 'Bob' } });
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    await shows('The nickname can be changed once a month');
    expect(storedUser()['username']).toBe('Alice');
    expect(screen.queryByText('home page')).toBeNull();
  });
});

describe('member/sz-qianming', () => {
  it('saves the signature on one line, clears it when empty, and refuses one too long', async () => {
    renderPage(<SignatureSettings />, '/member/sz-qianming');
    const text = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Signature' });
    expect(text.value).toBe('Hello');
    fireEvent.change(text, { target: { value: '好'.repeat(61) } });
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    await shows('A signature has at most 60 characters');
    expect(updates).toEqual([]);

    fireEvent.change(text, { target: { value: '  Coffee,\n  code  ' } });
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    await shows('home page');
    expect(updates).toEqual([expect.objectContaining({ qianming: 'Coffee, code' })]);
    expect(storedUser()['qianming']).toBe('Coffee, code');
  });

  it('clears the signature when it is left empty', async () => {
    renderPage(<SignatureSettings />, '/member/sz-qianming');
    fireEvent.change(screen.getByRole('textbox', { name: 'Signature' }), { target: { value: '   ' } });
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    await shows('home page');
    expect(updates).toEqual([expect.objectContaining({ qianming: '' })]);
    expect(storedUser()['qianming']).toBe('');
  });
});
