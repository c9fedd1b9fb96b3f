// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { requiresLogin } from '../../app/navigation';
import { FakeXhr, posted } from '../../features/api/fake-xhr';
import { cropImage } from '../../features/member/crop';
import { CHOSEN_AREA } from '../../features/member/fake-cropper';
import type * as CropModule from '../../features/member/crop';
import { NO_ADS, Where, renderApp, shows, step, uploadHandlers } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import AvatarCropperPage from './avatar-cropper';

// jsdom neither lays out nor draws: the cropper is a stand-in that reports a choice once shown, and cropping gives a
// small PNG, as in the profile page's tests. The real cropper and canvas run in the browser tests.
vi.mock('react-easy-crop', () => import('../../features/member/fake-cropper'));
vi.mock('../../features/member/crop', async (original) => ({
  ...(await original<typeof CropModule>()),
  cropImage: vi.fn(() => Promise.resolve(new File(['cropped'], 'avatar.png', { type: 'image/png' }))),
}));

const USER = { token: 'member-token', id: '42', username: 'Alice', img: 'https://files.test/uploads/old.png' };
const UPLOAD_URL = 'https://files.test/uploads';
const updates: Array<Record<string, unknown>> = [];
const api = setupServer(
  NO_ADS,
  ...uploadHandlers(UPLOAD_URL),
  http.post('*/index.php/api/member/profile_update', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    updates.push(body);
    return HttpResponse.json({ ret: { id: USER.id, username: USER.username, img: body['img'] } });
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
  updates.length = 0;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
afterAll(() => api.close());

/** The page, opened from the profile page, and where the app is. */
function renderPage() {
  return renderApp(
    <>
      <Routes>
        <Route path="/other/avatar-cropper" element={<AvatarCropperPage />} />
        <Route path="*" element={null} />
      </Routes>
      <Where />
    </>,
    { path: '/other/avatar-cropper' },
  );
}

const choose = (file: File) => fireEvent.change(screen.getByTestId('avatar-picker'), { target: { files: [file] } });

describe('other/avatar-cropper: the avatar cropper as a page', () => {
  it('needs a signed-in member', () => {
    expect(requiresLogin('other/avatar-cropper')).toBe(true);
  });

  it('crops a picked picture, uploads the square with progress, saves it as the avatar and closes', async () => {
    renderPage();
    expect(screen.getByTestId('profile-avatar').querySelector('img')?.getAttribute('src')).toBe(USER.img);
    const xhr = posted();
    choose(new File([new Uint8Array([137, 80, 78, 71])], 'me.png', { type: 'image/png' }));
    const use = await screen.findByRole('button', { name: 'Use' });
    await vi.waitFor(() => expect(use.hasAttribute('disabled')).toBe(false));
    fireEvent.click(use);
    const request = await xhr;
    expect(vi.mocked(cropImage).mock.calls.at(-1)?.[1]).toEqual(CHOSEN_AREA);
    expect(request.form().at(-1)).toEqual(['file', 'avatar.png (image/png)']);
    await step(() => request.progress(30, 100));
    expect(screen.getByTestId('avatar-progress').textContent).toContain('Uploading 30%');

    const key = request.form()[1]?.[1] ?? '';
    await step(() => request.respond(200, JSON.stringify({ key, url: `${UPLOAD_URL}/${key}` })));
    await shows('Saved');
    expect(updates).toEqual([expect.objectContaining({ token: USER.token, img: `${UPLOAD_URL}/${key}` })]);
    expect((JSON.parse(localStorage.getItem('user') ?? '{}') as typeof USER).img).toBe(`${UPLOAD_URL}/${key}`);
    // Opened first, the page closes to the front page.
    await vi.waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/pages/article/index'));
  });

  it('refuses a file that is no image before the cropper, and Cancel in the cropper saves nothing', async () => {
    renderPage();
    choose(new File(['%PDF'], 'cv.pdf', { type: 'application/pdf' }));
    await shows('Only jpg, png, gif and jpeg images');
    expect(screen.queryByRole('dialog', { name: 'Move and scale' })).toBeNull();

    choose(new File([new Uint8Array([137, 80, 78, 71])], 'me.png', { type: 'image/png' }));
    const cropper = await screen.findByRole('dialog', { name: 'Move and scale' });
    fireEvent.click(screen.getAllByRole('button', { name: 'Cancel' }).at(-1) as HTMLElement);
    await vi.waitFor(() => expect(cropper.isConnected).toBe(false));
    expect(FakeXhr.sent).toEqual([]);
    expect(updates).toEqual([]);
    expect(screen.getByTestId('where').textContent).toBe('/other/avatar-cropper');
  });
});
