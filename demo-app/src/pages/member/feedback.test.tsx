// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeXhr, posted } from '../../features/api/fake-xhr';
import { FEEDBACK_CONTENT_MAX, FEEDBACK_IMAGES_MAX, type Feedback } from '../../features/member/feedback';
import { renderApp, shows, step, uploadHandlers, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import FeedbackPage from './feedback';
import FeedbackListPage from './feedback-list';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };
const UPLOAD_URL = 'https://files.test/uploads';

/** What the fake server holds: the member's feedback, newest first. */
let stored: Feedback[] = [];
const adds: Array<Record<string, unknown>> = [];
const lists: Array<Record<string, unknown>> = [];
let refusal: { err: string; code: string } | undefined;
const api = setupServer(
  NO_ADS,
  ...uploadHandlers(UPLOAD_URL),
  http.post('*/index.php/api/member/feedback_add', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    adds.push(body);
    if (refusal) return HttpResponse.json(refusal);
    const feedback: Feedback = {
      id: `f${stored.length}`,
      phone: String(body['phone']),
      content: String(body['content']),
      imgs: body['imgs'] as string[],
      created_at: Date.now(),
    };
    stored.unshift(feedback);
    return HttpResponse.json({ ret: feedback });
  }),
  http.post('*/index.php/api/member/feedback_list', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    lists.push(body);
    const before = body['before'];
    const from = typeof before === 'string' ? stored.findIndex((f) => f.id === before) + 1 : 0;
    return HttpResponse.json({ ret: stored.slice(from, from + 20) });
  }),
);

beforeAll(() => {
  installAntdRender();
  api.listen({ onUnhandledRequest: 'error' });
});
beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('user', JSON.stringify(USER));
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  FakeXhr.sent = [];
  stored = [];
  adds.length = 0;
  lists.length = 0;
  refusal = undefined;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
afterAll(() => api.close());

/** The two pages under their routes, starting at `path`. */
function renderPages(path = '/member/feedback') {
  return renderApp(
    <Routes>
      <Route path="/member/feedback" element={<FeedbackPage />} />
      <Route path="/member/feedback-list" element={<FeedbackListPage />} />
    </Routes>,
    { path },
  );
}

const describeProblem = (text: string) =>
  fireEvent.change(screen.getByRole('textbox', { name: 'Problem description' }), { target: { value: text } });
const enterPhone = (text: string) =>
  fireEvent.change(screen.getByRole('textbox', { name: 'Contact phone' }), { target: { value: text } });
const send = () => step(() => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
const png = (name = 'shot.png') => new File([new Uint8Array([137, 80, 78, 71])], name, { type: 'image/png' });

/** Picks a screenshot and lets the storage take it; resolves with its URL. */
async function addScreenshot(): Promise<string> {
  const xhr = posted();
  await step(() =>
    fireEvent.change(screen.getByLabelText('Add a screenshot', { selector: 'input' }), {
      target: { files: [png()] },
    }),
  );
  const request = await xhr;
  const key = request.form()[1]?.[1] ?? '';
  await step(() => request.progress(50, 100));
  expect(screen.getByTestId('feedback-progress').textContent).toContain('Uploading 50%');
  const url = `${UPLOAD_URL}/${key}`;
  await step(() => request.respond(200, JSON.stringify({ key, url })));
  await vi.waitFor(() => expect(screen.queryByTestId('feedback-progress')).toBeNull());
  return url;
}

const screenshots = () => screen.queryAllByRole('img', { name: /^Screenshot \d$/ });

describe('member/feedback', () => {
  it('needs a problem description and a correct phone number before it sends anything', async () => {
    renderPages();
    await send();
    await shows('Please describe the problem');
    describeProblem('   ');
    await send();
    describeProblem('x'.repeat(FEEDBACK_CONTENT_MAX + 1));
    expect(screen.getByText(`${FEEDBACK_CONTENT_MAX + 1}/${FEEDBACK_CONTENT_MAX}`)).toBeTruthy();
    await send();
    await shows(`The description has at most ${FEEDBACK_CONTENT_MAX} characters`);
    describeProblem('The app crashes when I open a chat.');
    for (const phone of ['', '1380013800', '11800138000', '+1 20', '+12025550143']) {
      enterPhone(phone);
      await send();
      await shows('Enter a correct phone number');
    }
    expect(adds).toEqual([]);
  });

  it('uploads screenshots with progress, sends them with the description and phone, then shows the list', async () => {
    renderPages();
    const first = await addScreenshot();
    const second = await addScreenshot();
    expect(screenshots().map((img) => img.getAttribute('src'))).toEqual([first, second]);
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Remove screenshot 1' })));
    expect(screenshots().map((img) => img.getAttribute('src'))).toEqual([second]);

    describeProblem('  The app crashes when I open a chat.  ');
    enterPhone('138 0013 8000');
    await send();
    await shows('Thank you, we received your feedback');
    expect(adds).toEqual([
      expect.objectContaining({
        token: USER.token,
        content: 'The app crashes when I open a chat.',
        phone: '13800138000',
        quhao: '86',
        imgs: [second],
      }),
    ]);
    // The list of what was sent, with the new one in it.
    await shows('My feedback');
    await shows('The app crashes when I open a chat.');
    expect(screen.getAllByTestId('feedback-item')).toHaveLength(1);
    expect(screen.getByRole('img', { name: 'Screenshot 1' }).getAttribute('src')).toBe(second);
  });

  it('takes a number of another country with its code, and only images as screenshots, four at most', async () => {
    renderPages();
    await step(() =>
      fireEvent.change(screen.getByLabelText('Add a screenshot', { selector: 'input' }), {
        target: { files: [new File(['hi'], 'notes.txt', { type: 'text/plain' })] },
      }),
    );
    await shows('Only jpg, png, gif and jpeg images');
    expect(FakeXhr.sent).toEqual([]);
    for (let n = 0; n < FEEDBACK_IMAGES_MAX; n++) await addScreenshot();
    expect(screenshots()).toHaveLength(FEEDBACK_IMAGES_MAX);
    expect(screen.queryByRole('button', { name: 'Add a screenshot' })).toBeNull();

    describeProblem('Videos stall.');
    enterPhone('+1 202-555-0143');
    await send();
    expect(adds[0]).toMatchObject({ phone: '2025550143', quhao: '1' });
    expect((adds[0]?.['imgs'] as string[]).length).toBe(FEEDBACK_IMAGES_MAX);
  });

  it("shows the server's refusal and stays on the form", async () => {
    refusal = { err: 'do not operate frequently', code: 'too_frequent' };
    renderPages();
    describeProblem('Again.');
    enterPhone('13800138000');
    await send();
    await shows('Do not operate too frequently');
    expect(screen.getByRole('textbox', { name: 'Problem description' })).toBeTruthy();
    expect(lists).toEqual([]);
    // "My feedback" in the bar opens what was sent before.
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'My feedback' })));
    await shows('No feedback yet');
    expect(lists).toHaveLength(1);
  });
});

describe('member/feedback-list', () => {
  it('shows an empty list with a way to send feedback', async () => {
    renderPages('/member/feedback-list');
    await shows('No feedback yet');
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Feedback' })));
    expect(screen.getByRole('textbox', { name: 'Problem description' })).toBeTruthy();
  });

  it('lists twenty at a time, newest first, and loads more from the last one shown', async () => {
    const now = Date.now();
    stored = Array.from({ length: 23 }, (_, i) => ({
      id: `f${22 - i}`,
      phone: '13800138000',
      content: `report ${22 - i}`,
      imgs: [],
      created_at: now - i * 60_000,
    }));
    renderPages('/member/feedback-list');
    await shows('report 22');
    expect(screen.getAllByTestId('feedback-item')).toHaveLength(20);
    expect(screen.getAllByText('just now').length).toBeGreaterThan(0);
    await step(() => fireEvent.click(screen.getByRole('button', { name: 'Load more' })));
    await shows('report 0');
    expect(screen.getAllByTestId('feedback-item')).toHaveLength(23);
    expect(lists.map((body) => body['before'])).toEqual([undefined, 'f3']);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });
});
