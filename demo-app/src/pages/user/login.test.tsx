// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanupShell, currentRoute, renderShell, testConfig } from '../../app/shell-test-utils';
import { COUNTRIES, QUHAO_KEY, searchCountries } from '../../features/member/countries';
import { installAntdRender } from '../../ui/antd-render';
import { NO_ADS } from '../../test-utils';

const SLOW = { timeout: 5000 };
const PHONE = '13800138000';

const logins: Record<string, unknown>[] = [];
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/index/config', () => HttpResponse.json({ ret: testConfig() })),
  http.post('*/index.php/api/member/login', async ({ request }) => {
    logins.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json({ ret: { token: 't', id: '42', username: 'Alice', img: '' }, otp: null });
  }),
  http.post('*/index.php/api/member/info', () => HttpResponse.json({ ret: { id: '42' }, otp: null })),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  logins.length = 0;
});
afterEach(() => {
  cleanupShell();
});
afterAll(() => api.close());

const phoneInput = () => screen.getByRole<HTMLInputElement>('textbox', { name: 'Mobile number' });
const codeInput = () => screen.getByRole<HTMLInputElement>('textbox', { name: 'Verification code' });
const agreeBox = () => document.querySelector<HTMLInputElement>('.login-agree input[type=checkbox]');

/** Opens the login page and types a phone number and a code, and ticks the agreement. */
async function fillLogin() {
  renderShell({ path: '/user/login' });
  await screen.findByText('Sign in with your phone', {}, SLOW);
  fireEvent.change(phoneInput(), { target: { value: PHONE } });
  fireEvent.change(codeInput(), { target: { value: '123456' } });
  fireEvent.click(screen.getByText('I have read and agree to the', { exact: false }));
  expect(agreeBox()?.checked).toBe(true);
}

/** Back on the login page with what was typed. */
async function expectFormKept() {
  await screen.findByText('Sign in with your phone', {}, SLOW);
  expect(phoneInput().value).toBe(PHONE);
  expect(codeInput().value).toBe('123456');
  expect(agreeBox()?.checked).toBe(true);
}

describe('login: the country-code page (spec §2 user/quhao)', () => {
  it('keeps the typed number, code and agreement across a trip to the country-code page', async () => {
    await fillLogin();
    fireEvent.click(screen.getByText('Country/region'));
    await screen.findByPlaceholderText('Search by name or code', {}, SLOW);
    expect(currentRoute()).toBe('/user/quhao');
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'kingdom' } });
    fireEvent.click(screen.getByText('United Kingdom'));
    await waitFor(() => expect(currentRoute()).toBe('/user/login'));
    await expectFormKept();
    expect(screen.getByText('+44')).toBeTruthy();
    expect(sessionStorage.getItem(QUHAO_KEY)).toBe('44');
  });

  it('signs in with the chosen country code', async () => {
    sessionStorage.setItem(QUHAO_KEY, '44');
    renderShell({ path: '/user/login' });
    await screen.findByText('+44', {}, SLOW);
    fireEvent.change(phoneInput(), { target: { value: '7700900123' } });
    fireEvent.change(codeInput(), { target: { value: '654321' } });
    fireEvent.click(screen.getByText('I have read and agree to the', { exact: false }));
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(logins).toHaveLength(1));
    expect(logins[0]).toMatchObject({ phone: '7700900123', code: '654321', quhao: '44', agree: true });
    expect(logins[0]).not.toHaveProperty('invite');
  });

  it('sends the invitation code of an invitation link, and says so', async () => {
    renderShell({ path: '/user/login?invite=12345678' });
    await screen.findByText('Invited with code 12345678: sign up to accept', {}, SLOW);
    fireEvent.change(phoneInput(), { target: { value: PHONE } });
    fireEvent.change(codeInput(), { target: { value: '123456' } });
    fireEvent.click(screen.getByText('I have read and agree to the', { exact: false }));
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(logins).toHaveLength(1));
    expect(logins[0]).toMatchObject({ phone: PHONE, invite: '12345678' });
  });

  it('ignores an invitation code that is no member id', async () => {
    renderShell({ path: '/user/login?invite=%3Cscript%3E' });
    await screen.findByText('Sign in with your phone', {}, SLOW);
    expect(screen.queryByTestId('invite')).toBeNull();
  });

  it('lists the countries matching a search and says when none does', async () => {
    renderShell({ path: '/user/quhao', language: 'zh-CN' });
    await screen.findByText('中国大陆', {}, SLOW);
    expect(document.querySelectorAll('.adm-list-item')).toHaveLength(COUNTRIES.length);
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: '+81' } });
    expect(screen.getByText('日本')).toBeTruthy();
    expect(screen.queryByText('中国大陆')).toBeNull();
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'atlantis' } });
    expect(screen.getByText('没有匹配的国家/地区')).toBeTruthy();
  });
});

describe('searchCountries', () => {
  it('gives the whole list for an empty query, mainland China first', () => {
    expect(searchCountries('')).toEqual(COUNTRIES);
    expect(searchCountries('   ')[0]).toMatchObject({ code: '86', en: 'Mainland China' });
  });

  it('matches the code with or without "+", and either language, ignoring case', () => {
    expect(searchCountries('+852').map((c) => c.en)).toEqual(['Hong Kong, China']);
    expect(searchCountries('852').map((c) => c.en)).toEqual(['Hong Kong, China']);
    expect(searchCountries('1').some((c) => c.en === 'Canada')).toBe(true);
    expect(searchCountries('JAPAN').map((c) => c.code)).toEqual(['81']);
    expect(searchCountries('德国').map((c) => c.code)).toEqual(['49']);
    expect(searchCountries('中国').map((c) => c.code)).toEqual(['86', '852', '853', '886']);
  });

  it('finds nothing for a query no country matches', () => {
    expect(searchCountries('atlantis')).toEqual([]);
  });
});

describe('login: the agreements (spec §5)', () => {
  it('opens the user agreement from its link, leaves the box as it was, and keeps the form', async () => {
    await fillLogin();
    fireEvent.click(screen.getByRole('link', { name: 'User Agreement' }));
    expect(await screen.findByRole('heading', { name: 'User Agreement' }, SLOW)).toBeTruthy();
    expect(currentRoute()).toBe('/public/agreement');
    expect(screen.getByText('1. Your account')).toBeTruthy();
    fireEvent.click(screen.getByText('Back'));
    await expectFormKept();
  });

  it('opens the privacy policy in Chinese', async () => {
    renderShell({ path: '/user/login', language: 'zh-CN' });
    fireEvent.click(await screen.findByRole('link', { name: '《隐私政策》' }, SLOW));
    expect(await screen.findByRole('heading', { name: '隐私政策' }, SLOW)).toBeTruthy();
    expect(screen.getByText('一、我们收集的信息')).toBeTruthy();
    expect(currentRoute()).toBe('/public/privacy');
  });

  it('opens both from settings', async () => {
    localStorage.setItem('user', JSON.stringify({ token: 't', id: '42', username: 'Alice', img: '' }));
    renderShell({ path: '/member/sz' });
    fireEvent.click(await screen.findByText('Privacy Policy', {}, SLOW));
    expect(await screen.findByRole('heading', { name: 'Privacy Policy' }, SLOW)).toBeTruthy();
    fireEvent.click(screen.getByText('Back'));
    fireEvent.click(await screen.findByText('User Agreement', {}, SLOW));
    expect(await screen.findByRole('heading', { name: 'User Agreement' }, SLOW)).toBeTruthy();
    expect(currentRoute()).toBe('/public/agreement');
  });

  it('refuses to sign in before the agreements are accepted', async () => {
    renderShell({ path: '/user/login' });
    await screen.findByText('Sign in with your phone', {}, SLOW);
    fireEvent.change(phoneInput(), { target: { value: PHONE } });
    fireEvent.change(codeInput(), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Please read and agree to the User Agreement and Privacy Policy')).toBeTruthy();
    expect(logins).toHaveLength(0);
  });
});

describe('login: language for visitors', () => {
  it('switches the language from the login page and remembers it', async () => {
    renderShell({ path: '/user/login' });
    fireEvent.click(await screen.findByRole('button', { name: 'Language' }, SLOW));
    fireEvent.click(await screen.findByText('简体中文'));
    expect(await screen.findByText('手机号登录')).toBeTruthy();
    expect(localStorage.getItem('language')).toBe('zh-CN');
    expect(currentRoute()).toBe('/user/login');
  });

  it('switches the language from the user tab without signing in', async () => {
    renderShell({ path: '/pages/user/index', language: 'zh-CN' });
    fireEvent.click(await screen.findByText('语言', {}, SLOW));
    fireEvent.click(await screen.findByText('English'));
    expect(await screen.findByText('Sign in / Sign up')).toBeTruthy();
    expect(currentRoute()).toBe('/pages/user/index');
  });
});
