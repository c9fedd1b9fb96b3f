// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes, useNavigate } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOME_PATH } from '../../app/navigation';
import { renderApp, shows, step, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import CancelAccount from './out';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };

const calls: Array<Record<string, unknown>> = [];
let refusal: { err: string; code: string } | undefined;
const api = setupServer(
  NO_ADS,
  http.post('*/index.php/api/member/out', async ({ request }) => {
    calls.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json(refusal ?? { ret: true });
  }),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  localStorage.setItem('user_out', JSON.stringify({ ...USER, token: 'older' }));
  calls.length = 0;
  refusal = undefined;
});
afterEach(() => cleanup());
afterAll(() => api.close());

/** Stands in for the agreement page: its text and a way back. */
function AgreementStub() {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => void navigate(-1)}>
      the agreement
    </button>
  );
}

function renderPage() {
  return renderApp(
    <Routes>
      <Route path="/member/out" element={<CancelAccount />} />
      <Route path={HOME_PATH} element={<p>home page</p>} />
      <Route path="/public/cancellation" element={<AgreementStub />} />
    </Routes>,
    { path: '/member/out' },
  );
}

/** The confirmation dialog on top. */
const getDialog = () => screen.getAllByRole('dialog').at(-1) as HTMLElement;
const choose = (label: string) => step(() => fireEvent.click(screen.getByText(label)));
const agree = () => step(() => fireEvent.click(screen.getByText('I have read and agree to the')));
const submit = () =>
  step(() =>
    fireEvent.click(
      within(screen.getByText('I have read and agree to the').closest('.page-actions') as HTMLElement).getByRole(
        'button',
        { name: 'Cancel account' },
      ),
    ),
  );

describe('member/out: account cancellation', () => {
  it('needs a reason, its own words for "something else", and the agreement, before it asks', async () => {
    renderPage();
    await submit();
    await shows('Please choose a reason');
    await choose('Something else');
    fireEvent.change(screen.getByPlaceholderText('Tell us why'), { target: { value: '   ' } });
    await submit();
    await choose('Privacy concerns');
    await submit();
    await shows('Please read and agree to the Account Cancellation Agreement');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls).toEqual([]);
  });

  it('cancels after the confirmation, signs out without keeping a copy, and opens home', async () => {
    renderPage();
    await choose('Privacy concerns');
    await agree();
    await submit();
    await step(() => fireEvent.click(within(getDialog()).getByRole('button', { name: 'Cancel account' })));
    await shows('home page');
    expect(calls).toEqual([expect.objectContaining({ token: USER.token, reason: 'privacy', agree: true })]);
    expect(localStorage.getItem('user')).toBeNull();
    expect(localStorage.getItem('user_out')).toBeNull();
    await shows('Your account has been cancelled');
  });

  it("sends the member's own words for another reason; backing out of the dialog sends nothing", async () => {
    renderPage();
    await choose('Something else');
    fireEvent.change(screen.getByPlaceholderText('Tell us why'), { target: { value: '  Too many notifications ' } });
    await agree();
    await submit();
    await step(() => fireEvent.click(within(getDialog()).getByRole('button', { name: 'Cancel' })));
    expect(calls).toEqual([]);
    await submit();
    await step(() => fireEvent.click(within(getDialog()).getByRole('button', { name: 'Cancel account' })));
    await shows('home page');
    expect(calls).toEqual([expect.objectContaining({ reason: 'Too many notifications' })]);
  });

  it("shows the server's refusal and stays signed in", async () => {
    refusal = { err: 'account expired', code: 'token_invalid' };
    renderPage();
    await choose('I no longer use it');
    await agree();
    await submit();
    await step(() => fireEvent.click(within(getDialog()).getByRole('button', { name: 'Cancel account' })));
    await shows('Account expired');
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ token: USER.token });
    expect(screen.queryByText('home page')).toBeNull();
  });

  it('opens the agreement from its link without ticking the box, and keeps the form for the way back', async () => {
    renderPage();
    await choose('Something else');
    fireEvent.change(screen.getByPlaceholderText('Tell us why'), { target: { value: 'Too slow' } });
    await step(() => fireEvent.click(screen.getByRole('link', { name: 'Account Cancellation Agreement' })));
    await shows('the agreement');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'the agreement' })));
    await shows('Why are you leaving?');
    expect(screen.getByRole<HTMLTextAreaElement>('textbox').value).toBe('Too slow');
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Something else' }).checked).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('checkbox').checked).toBe(false);
  });
});
