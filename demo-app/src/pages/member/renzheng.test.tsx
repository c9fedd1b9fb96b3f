// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeXhr, posted } from '../../features/api/fake-xhr';
import type { Certification } from '../../features/member/certification';
import { renderApp, shows, step, uploadHandlers, NO_ADS } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import CertificationPage from './renzheng';

const USER = { token: 'member-token', id: '42', username: 'Alice', img: '' };
const UPLOAD_URL = 'https://files.test/uploads';

/** The fake server's certification of the member, and what was submitted. */
let current: Certification | null = null;
const adds: Array<Record<string, unknown>> = [];
let refusal: { err: string; code: string } | undefined;
const api = setupServer(
  NO_ADS,
  ...uploadHandlers(UPLOAD_URL),
  http.post('*/index.php/api/member/renzheng_info', () => HttpResponse.json({ ret: current })),
  http.post('*/index.php/api/member/renzheng_add', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    adds.push(body);
    if (refusal) return HttpResponse.json(refusal);
    current = {
      type: body['type'] as Certification['type'],
      name: String(body['name']),
      number: '1****************X',
      status: 'pending',
      reason: '',
      submitted_at: Date.now(),
      reviewed_at: null,
    };
    return HttpResponse.json({ ret: current });
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
  current = null;
  adds.length = 0;
  refusal = undefined;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
afterAll(() => api.close());

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByRole('textbox', { name: label }), { target: { value } });
const submit = () => step(() => fireEvent.click(screen.getByRole('button', { name: 'Submit for review' })));
const png = () => new File([new Uint8Array([137, 80, 78, 71])], 'card.png', { type: 'image/png' });

/** Picks a photo for the slot labelled `slot` and lets the storage take it; resolves with its URL. */
async function addPhoto(slot: string): Promise<string> {
  await step(() => fireEvent.click(screen.getByRole('button', { name: slot })));
  const xhr = posted();
  await step(() => fireEvent.change(screen.getByTestId('cert-picker'), { target: { files: [png()] } }));
  const request = await xhr;
  const key = request.form()[1]?.[1] ?? '';
  await step(() => request.progress(30, 100));
  expect(screen.getByTestId('cert-progress').textContent).toContain('Uploading 30%');
  const url = `${UPLOAD_URL}/${key}`;
  await step(() => request.respond(200, JSON.stringify({ key, url })));
  await vi.waitFor(() => expect(screen.queryByTestId('cert-progress')).toBeNull());
  return url;
}

describe('member/renzheng: real-name certification', () => {
  it('checks the name, the number and the photos before it sends anything', async () => {
    renderApp(<CertificationPage />);
    await shows('Photos of both sides of your identity card');
    await submit();
    await shows('Enter your real name: 2 to 30 characters, no digits');
    type('Real name', 'Wang 2');
    await submit();
    await shows('Enter your real name: 2 to 30 characters, no digits');
    type('Real name', '王小明');
    type('ID card number', '1101051949123100');
    await submit();
    await shows('Enter the 18-digit identity card number');
    type('ID card number', '11010519491231002x');
    await addPhoto('Front');
    await submit();
    await shows('Upload photos of both sides of your identity card');
    expect(adds).toEqual([]);
  });

  it('sends a personal certification with both sides of the card, then shows it under review', async () => {
    renderApp(<CertificationPage />);
    await shows('Real name');
    type('Real name', ' 王小明 ');
    type('ID card number', '11010519491231002x');
    const front = await addPhoto('Front');
    const back = await addPhoto('Back');
    await submit();
    await shows('Under review');
    expect(screen.getByText('Review takes 1 to 3 working days')).toBeTruthy();
    expect(screen.getByText('1****************X')).toBeTruthy();
    expect(adds).toEqual([
      expect.objectContaining({
        type: 'personal',
        name: '王小明',
        number: '11010519491231002x',
        imgs: [front, back],
        token: USER.token,
      }),
    ]);
    expect(screen.queryByRole('button', { name: 'Submit for review' })).toBeNull();
  });

  it("shows a failure's reason over the form; an organisation sends one photo of its licence", async () => {
    current = {
      type: 'personal',
      name: '王小明',
      number: '1****************X',
      status: 'failed',
      reason: 'The photo is blurred',
      submitted_at: 1,
      reviewed_at: 2,
    };
    renderApp(<CertificationPage />);
    await shows('Certification failed: The photo is blurred. Please correct it and submit again.');
    await step(() => fireEvent.click(screen.getByText('Enterprise')));
    await shows('Photos of the business licence (at most 2)');
    type('Organisation name', 'Parley Tech Co., Ltd.');
    type('Credit code', '91350100M000100Y43');
    await addPhoto('Licence');
    // The server checks the check character; its refusal is shown.
    refusal = { err: 'parameter error', code: 'cert_number_invalid' };
    await submit();
    await shows('The number is not correct, please check it');
    refusal = undefined;
    await submit();
    await shows('Under review');
    expect(adds.at(-1)).toMatchObject({ type: 'enterprise', number: '91350100M000100Y43' });
    expect((adds.at(-1)?.['imgs'] as string[]).length).toBe(1);
  });

  it('starts the photos over when the kind changes, since the card and the licence are different photos', async () => {
    renderApp(<CertificationPage />);
    await shows('Real name');
    await addPhoto('Front');
    expect(screen.getByRole('button', { name: 'Front' }).querySelector('img')).not.toBeNull();
    await step(() => fireEvent.click(screen.getByText('Enterprise')));
    await shows('Photos of the business licence (at most 2)');
    expect(screen.getByRole('button', { name: 'Licence' }).querySelector('img')).toBeNull();
    await step(() => fireEvent.click(screen.getByText('Personal')));
    expect(screen.getByRole('button', { name: 'Front' }).querySelector('img')).toBeNull();
  });

  it('says when the member is certified', async () => {
    current = {
      type: 'enterprise',
      name: 'Parley Tech',
      number: '9****************3',
      status: 'passed',
      reason: '',
      submitted_at: 1,
      reviewed_at: 2,
    };
    renderApp(<CertificationPage />);
    await shows('Certified');
    expect(screen.getByText('Your real-name certification has passed')).toBeTruthy();
    expect(screen.getByText('Parley Tech')).toBeTruthy();
  });
});
