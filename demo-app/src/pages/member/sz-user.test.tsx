// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeXhr, posted } from '../../features/api/fake-xhr';
import { cropImage } from '../../features/member/crop';
import { CHOSEN_AREA } from '../../features/member/fake-cropper';
import type * as CropModule from '../../features/member/crop';
import { renderApp, shows, step, uploadHandlers, NO_ADS } from '../../test-utils';
import ProfileSettings from './sz-user';
import { installAntdRender } from '../../ui/antd-render';

// jsdom neither lays out nor draws: the cropper is a stand-in that reports a choice once shown, and cropping gives a
// small PNG. The real cropper and canvas run in the browser tests (e2e/profile.e2e.ts).
vi.mock('react-easy-crop', () => import('../../features/member/fake-cropper'));
vi.mock('../../features/member/crop', async (original) => ({
  ...(await original<typeof CropModule>()),
  cropImage: vi.fn(() => Promise.resolve(new File(['cropped'], 'avatar.png', { type: 'image/png' }))),
}));

const USER = { token: 'member-token', id: '42', username: 'Alice', img: 'https://files.test/uploads/old.png' };
const UPLOAD_URL = 'https://files.test/uploads';

const updates: Array<Record<string, unknown>> = [];
let profileRefusal: { err: string; code: string } | undefined;
const api = setupServer(
  NO_ADS,
  ...uploadHandlers(UPLOAD_URL),
  http.post('*/index.php/api/member/profile_update', async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    updates.push(body);
    if (profileRefusal) return HttpResponse.json(profileRefusal);
    const stored = JSON.parse(localStorage.getItem('user') ?? '{}') as Record<string, unknown>;
    const field = (name: string, empty: string) => body[name] ?? stored[name] ?? empty;
    return HttpResponse.json({
      ret: {
        id: stored['id'],
        username: field('username', ''),
        img: field('img', ''),
        gender: field('gender', 'hidden'),
        birthday: field('birthday', ''),
        region: field('region', ''),
        qianming: field('qianming', ''),
        background: field('background', ''),
      },
    });
  }),
);

// antd-mobile's toasts render with createRoot under React 19, as in main.tsx.
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
  profileRefusal = undefined;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
afterAll(() => api.close());

const storedUser = () => JSON.parse(localStorage.getItem('user') ?? '{}') as typeof USER;
const avatarSrc = () => screen.getByTestId('profile-avatar').querySelector('img')?.getAttribute('src');

/** Does `work` and lets what it started (calls, renders) settle. */

/** Picks `file` in the avatar's file chooser and uses the cropper's square. */
async function pick(file: File) {
  fireEvent.change(screen.getByLabelText('Change avatar'), { target: { files: [file] } });
  const use = await screen.findByRole('button', { name: 'Use' });
  await vi.waitFor(() => expect(use.hasAttribute('disabled')).toBe(false));
  fireEvent.click(use);
}

/** Waits until `text` is on the screen (toasts render outside the page). */

const png = () => new File([new Uint8Array([137, 80, 78, 71])], 'me.png', { type: 'image/png' });

describe('member/sz-user: edit info', () => {
  it('shows the current avatar, nickname and details, "not set" where there are none', () => {
    localStorage.setItem(
      'user',
      JSON.stringify({ ...USER, gender: 'female', birthday: '1995-02-28', region: 'Hangzhou' }),
    );
    renderApp(<ProfileSettings />);
    expect(screen.getByText('Edit profile')).toBeTruthy();
    expect(avatarSrc()).toBe(USER.img);
    expect(screen.getByText('Alice')).toBeTruthy();
    expect(screen.getByText('Female')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Birthday').value).toBe('1995-02-28');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Region' }).value).toBe('Hangzhou');
    // No signature and no background yet.
    expect(screen.getAllByText('Not set')).toHaveLength(2);
  });

  it('uploads a picked image with progress, saves it as the avatar and updates the stored user', async () => {
    renderApp(<ProfileSettings />);
    const xhr = posted();
    await pick(png());
    const request = await xhr;
    const key = request.form()[1]?.[1] ?? '';
    // What goes up is the cropper's square of the picked picture.
    const picked = vi.mocked(cropImage).mock.calls.at(-1);
    expect(picked?.[0]).toMatchObject({ name: 'me.png' });
    expect(picked?.[1]).toEqual(CHOSEN_AREA);
    expect(request.form().at(-1)).toEqual(['file', 'avatar.png (image/png)']);
    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Move and scale' })).toBeNull());
    await step(() => request.progress(40, 100));
    expect(screen.getByTestId('profile-progress').textContent).toContain('Uploading 40%');

    await step(() => request.respond(200, JSON.stringify({ key, url: `${UPLOAD_URL}/${key}` })));
    await shows('Saved');
    expect(updates).toEqual([expect.objectContaining({ token: USER.token, img: `${UPLOAD_URL}/${key}` })]);
    expect(avatarSrc()).toBe(`${UPLOAD_URL}/${key}`);
    expect(storedUser().img).toBe(`${UPLOAD_URL}/${key}`);
    expect(screen.queryByTestId('profile-progress')).toBeNull();
  });

  it('Cancel in the cropper keeps the avatar and uploads nothing', async () => {
    renderApp(<ProfileSettings />);
    fireEvent.change(screen.getByLabelText('Change avatar'), { target: { files: [png()] } });
    const cropper = await screen.findByRole('dialog', { name: 'Move and scale' });
    expect(screen.getByRole('slider', { name: 'Zoom' })).toBeTruthy();
    await step(() => fireEvent.click(within(cropper).getByRole('button', { name: 'Cancel' })));
    expect(screen.queryByRole('dialog', { name: 'Move and scale' })).toBeNull();
    expect(FakeXhr.sent).toEqual([]);
    expect(updates).toEqual([]);
    expect(avatarSrc()).toBe(USER.img);
  });

  it('says so and stays in the cropper when the picture cannot be cropped', async () => {
    vi.mocked(cropImage).mockRejectedValueOnce(new Error('no canvas'));
    renderApp(<ProfileSettings />);
    await pick(png());
    await shows('The image cannot be cropped: choose another');
    expect(screen.getByRole('dialog', { name: 'Move and scale' })).toBeTruthy();
    expect(FakeXhr.sent).toEqual([]);
  });

  it('takes only jpg, png, gif and jpeg images', async () => {
    renderApp(<ProfileSettings />);
    const choose = (file: File) =>
      fireEvent.change(screen.getByLabelText('Change avatar'), { target: { files: [file] } });
    await step(() => choose(new File(['<svg/>'], 'me.svg', { type: 'image/svg+xml' })));
    await shows('Only jpg, png, gif and jpeg images');
    await step(() => choose(new File(['hi'], 'notes.txt', { type: 'text/plain' })));
    expect(screen.queryByRole('dialog', { name: 'Move and scale' })).toBeNull();
    expect(FakeXhr.sent).toEqual([]);
    expect(updates).toEqual([]);
  });

  it('shows the upload failure and keeps the old avatar when the storage refuses', async () => {
    renderApp(<ProfileSettings />);
    const xhr = posted();
    await pick(png());
    const request = await xhr;
    await step(() => request.respond(413, JSON.stringify({ code: 413, content: 'too large' })));
    await shows('Image, video and video-cover upload failed');
    expect(updates).toEqual([]);
    expect(avatarSrc()).toBe(USER.img);
    expect(screen.queryByTestId('profile-progress')).toBeNull();
  });

  it("shows the server's refusal of the avatar", async () => {
    profileRefusal = { err: 'parameter error', code: 'img_invalid' };
    renderApp(<ProfileSettings />);
    const xhr = posted();
    await pick(png());
    const request = await xhr;
    await step(() => request.respond(200, JSON.stringify({ key: 'k', url: `${UPLOAD_URL}/k` })));
    await shows('The avatar image is not valid, please upload it again');
    expect(storedUser().img).toBe(USER.img);
  });

  it('uploads a background with progress and saves it', async () => {
    renderApp(<ProfileSettings />);
    const xhr = posted();
    fireEvent.change(screen.getByLabelText('Change background'), { target: { files: [png()] } });
    const request = await xhr;
    const key = request.form()[1]?.[1] ?? '';
    await step(() => request.progress(30, 100));
    expect(screen.getByTestId('profile-progress').textContent).toContain('Uploading 30%');
    await step(() => request.respond(200, JSON.stringify({ key, url: `${UPLOAD_URL}/${key}` })));
    await shows('Saved');
    expect(updates).toEqual([expect.objectContaining({ background: `${UPLOAD_URL}/${key}` })]);
    expect(screen.getByTestId('profile-background').getAttribute('src')).toBe(`${UPLOAD_URL}/${key}`);
    expect(storedUser()).toMatchObject({ background: `${UPLOAD_URL}/${key}`, img: USER.img });
  });

  it('saves the gender chosen from the sheet, the birthday picked and the region typed', async () => {
    renderApp(<ProfileSettings />, { language: 'zh-CN' });
    await step(() => fireEvent.click(screen.getByText('性别')));
    await step(() => fireEvent.click(screen.getByText('女')));
    await shows('已保存');
    expect(updates.at(-1)).toMatchObject({ token: USER.token, gender: 'female' });
    expect(storedUser()).toMatchObject({ gender: 'female' });

    await step(() => fireEvent.change(screen.getByLabelText('生日'), { target: { value: '1995-02-28' } }));
    expect(updates.at(-1)).toMatchObject({ birthday: '1995-02-28' });
    expect(storedUser()).toMatchObject({ birthday: '1995-02-28' });

    const region = screen.getByRole<HTMLInputElement>('textbox', { name: '地区' });
    fireEvent.change(region, { target: { value: '  杭州  ' } });
    await step(() => fireEvent.blur(region));
    expect(updates.at(-1)).toMatchObject({ region: '杭州' });
    expect(storedUser()).toMatchObject({ region: '杭州' });
    // Leaving it unchanged sends nothing more.
    const count = updates.length;
    await step(() => fireEvent.blur(region));
    expect(updates).toHaveLength(count);
  });

  it('puts the region back when the server refuses it', async () => {
    localStorage.setItem('user', JSON.stringify({ ...USER, region: 'Hangzhou' }));
    profileRefusal = { err: 'parameter error', code: 'region_invalid' };
    renderApp(<ProfileSettings />);
    const region = screen.getByRole<HTMLInputElement>('textbox', { name: 'Region' });
    fireEvent.change(region, { target: { value: 'Somewhere' } });
    await step(() => fireEvent.blur(region));
    await shows('A region has at most 30 characters');
    expect(region.value).toBe('Hangzhou');
    expect(storedUser()).toMatchObject({ region: 'Hangzhou' });
  });
});
