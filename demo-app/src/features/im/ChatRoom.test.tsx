// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../test-utils';
import { installAntdRender } from '../../ui/antd-render';
import { ChatRoom } from './ChatRoom';
import { fakeChat, withoutMediaProbes, type FakeChat } from './fake-chat';

// antd-mobile's toasts and action sheets render with createRoot under React 19, as in main.tsx.
beforeAll(() => {
  installAntdRender();
});
let restoreProbes: () => void;
beforeEach(() => {
  restoreProbes = withoutMediaProbes();
});
afterEach(() => {
  cleanup();
  restoreProbes();
});

const BOB = { type: 'private' as const, id: 'bob', data: { name: 'Bob' } };

/** Renders a chat with Bob for the fake chat's user and waits until its first page is in. */
async function openChat(chat: FakeChat, language: 'en' | 'zh-CN' = 'en') {
  const view = renderApp(chat.provide(<ChatRoom target={BOB} emoji={undefined} />), { language });
  await waitFor(() => expect(chat.server.requests('IM_HISTORY')).toHaveLength(1));
  return view;
}

const messages = () => screen.queryAllByTestId('message');
const last = () => messages().at(-1)!;
const pngOf = (name: string, size = 64) => new File([new Uint8Array(size).fill(1)], name, { type: 'image/png' });

const sheets = () => [...document.querySelectorAll<HTMLElement>('.adm-action-sheet')];

/** Taps `target` and returns the action sheet it opens (sheets closed before may linger while they animate out). */
async function actionsOf(target: HTMLElement): Promise<HTMLElement> {
  const before = new Set(sheets());
  fireEvent.click(target);
  return waitFor(() => {
    const sheet = sheets().find((s) => !before.has(s));
    if (!sheet) throw new Error('no new action sheet');
    return sheet;
  });
}

/** Picks `file` in the composer's chooser for `kind`, through the attachment panel. */
async function attach(kind: 'image' | 'video' | 'audio' | 'file', file: File) {
  fireEvent.click(screen.getByRole('button', { name: 'Attach' }));
  const labels = { image: 'Image', video: 'Video', audio: 'Audio', file: 'File' };
  expect(screen.getByRole('button', { name: labels[kind] })).toBeTruthy();
  await act(async () => {
    fireEvent.change(screen.getByTestId(`attach-${kind}`), { target: { files: [file] } });
    await Promise.resolve();
  });
}

describe('chat: media from the composer', () => {
  it('shows a picked image at once with its upload progress, then sent, as an image with its URL', async () => {
    const chat = fakeChat();
    await openChat(chat);
    chat.storage.script.progress = [0, 40];
    const release = chat.holdUploads();
    await attach('image', pngOf('cat.png'));

    expect(await screen.findByText('Uploading 40%')).toBeTruthy();
    expect(last().dataset.status).toBe('sending');
    expect(within(last()).getByText('cat.png')).toBeTruthy();
    expect(chat.server.requests('publishIM')).toHaveLength(0);

    await act(async () => {
      release();
      await Promise.resolve();
    });
    await waitFor(() => expect(last().dataset.status).toBe('success'));
    expect(screen.queryByText(/Uploading/)).toBeNull();
    const img = within(last()).getByRole('img', { name: 'cat.png' });
    expect(img.getAttribute('src')).toMatch(/^https:\/\/files\.test\/uploads\/im\/abc\/parley_0+1\.bin\?/);
    expect(chat.storage.posts.map((p) => p.fileName)).toEqual(['cat.png']);
  });

  it('cancels an upload under way; the message fails and sends again on retry', async () => {
    const chat = fakeChat();
    await openChat(chat);
    chat.holdUploads();
    await attach('file', new File(['minutes'], 'notes.txt', { type: 'text/plain' }));
    await waitFor(() => expect(chat.storage.posts).toHaveLength(1));

    fireEvent.click(screen.getByRole('button', { name: 'Cancel upload' }));
    expect(await screen.findByText('Upload cancelled')).toBeTruthy();
    await waitFor(() => expect(last().dataset.status).toBe('fail'));

    chat.storage.script.hold = undefined;
    await act(async () => {
      fireEvent.click(within(last()).getByRole('button', { name: /Retry/ }));
      await Promise.resolve();
    });
    await waitFor(() => expect(last().dataset.status).toBe('success'));
    expect(messages()).toHaveLength(1);
    expect(within(last()).getByRole('link', { name: 'Download' }).getAttribute('download')).toBe('notes.txt');
    expect(chat.storage.posts).toHaveLength(2);
  });

  it("says in the user's language why the SDK refuses a file, and shows nothing", async () => {
    const chat = fakeChat();
    await openChat(chat);
    await attach('image', new File(['%PDF'], 'notes.pdf', { type: 'application/pdf' }));
    expect(await screen.findByText('Only gif, jpg, png, jpeg images can be sent')).toBeTruthy();

    const huge = new File(['x'], 'clip.mp4', { type: 'video/mp4' });
    Object.defineProperty(huge, 'size', { value: 30 * 1024 * 1024 + 1 });
    await attach('video', huge);
    expect(await screen.findByText('Files can be at most 30 MB')).toBeTruthy();
    expect(messages()).toHaveLength(0);
    expect(chat.server.requests('uploadToken')).toHaveLength(0);
  });

  it('shows a failed upload as failed, in Chinese too', async () => {
    const chat = fakeChat();
    await openChat(chat, 'zh-CN');
    chat.storage.script.status = 500;
    fireEvent.click(screen.getByRole('button', { name: '添加附件' }));
    await act(async () => {
      fireEvent.change(screen.getByTestId('attach-image'), { target: { files: [pngOf('cat.png')] } });
      await Promise.resolve();
    });
    expect(await screen.findByText('上传失败，请重试')).toBeTruthy();
    await waitFor(() => expect(last().dataset.status).toBe('fail'));
    expect(within(last()).getByText(/发送失败/)).toBeTruthy();
  });
});

describe('chat: history, recall and delete', () => {
  it('loads older messages when scrolled to the top, until there are none', async () => {
    const chat = fakeChat();
    for (let i = 1; i <= 25; i++) chat.im.fromPeer('bob', `m${i}`, false);
    await openChat(chat);
    await waitFor(() => expect(messages()).toHaveLength(20));
    expect(messages()[0]?.textContent).toContain('m6');

    const list = screen.getByTestId('messages');
    await act(async () => {
      list.scrollTop = 0;
      fireEvent.scroll(list);
      await Promise.resolve();
    });
    await waitFor(() => expect(messages()).toHaveLength(25));
    expect(messages()[0]?.textContent).toContain('m1');
    expect(screen.getByText('No more messages')).toBeTruthy();
  });

  it('says when the history could not be loaded, and loads it on retry', async () => {
    const chat = fakeChat();
    chat.im.fromPeer('bob', 'are you there?', false);
    chat.server.handle('IM_HISTORY', () => ({ code: 408, resultCode: 408, content: 'Host unreachable or timeout' }));
    await openChat(chat);
    expect(await screen.findByText('Could not load messages')).toBeTruthy();
    expect(messages()).toHaveLength(0);

    chat.server.handle('IM_HISTORY', () => ({ code: 200, content: { messages: chat.im.stored, userOffsets: [] } }));
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('are you there?')).toBeTruthy();
    expect(screen.queryByText('Could not load messages')).toBeNull();
  });

  it('recalls my own message and deletes one of theirs, from the message actions', async () => {
    const chat = fakeChat();
    chat.im.fromPeer('bob', 'hello from Bob', false);
    await openChat(chat);
    await screen.findByText('hello from Bob');
    fireEvent.change(screen.getByPlaceholderText('Say something…'), { target: { value: 'hi Bob' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(last().dataset.status).toBe('success'));

    fireEvent.click(within(await actionsOf(screen.getByText('hi Bob'))).getByText('Recall'));
    expect(await screen.findByText('You recalled a message')).toBeTruthy();
    expect(screen.queryByText('hi Bob')).toBeNull();
    expect(chat.server.requests('IM_RECALL_MESSAGE')).toHaveLength(1);

    // Their message offers delete only.
    const sheet = await actionsOf(screen.getByText('hello from Bob'));
    expect(within(sheet).queryByText('Recall')).toBeNull();
    fireEvent.click(within(sheet).getByText('Delete'));
    await waitFor(() => expect(screen.queryByText('hello from Bob')).toBeNull());
    expect(chat.server.requests('IM_DELETE_MESSAGE')).toHaveLength(1);
  });

  it('offers recall for a sent image through its "more" button', async () => {
    const chat = fakeChat();
    await openChat(chat);
    await attach('image', pngOf('cat.png'));
    await waitFor(() => expect(last().dataset.status).toBe('success'));
    const sheet = await actionsOf(within(last()).getByRole('button', { name: 'More actions' }));
    fireEvent.click(within(sheet).getByText('Recall'));
    expect(await screen.findByText('You recalled a message')).toBeTruthy();
  });
});

describe('chat: typing', () => {
  const typingPush = (userId: string, targetId: string, scene: 'private' | 'group', typing: boolean) => ({
    scene,
    targetId,
    userId,
    userData: JSON.stringify({ name: userId === 'bob' ? 'Bob' : 'Carol' }),
    typing,
  });

  it('tells Bob while I type, and that I stopped when the input is emptied', async () => {
    const chat = fakeChat();
    await openChat(chat);
    const input = screen.getByPlaceholderText('Say something…');
    fireEvent.change(input, { target: { value: 'h' } });
    fireEvent.change(input, { target: { value: 'hi' } });
    fireEvent.change(input, { target: { value: '' } });
    await waitFor(() =>
      expect(chat.server.requests('IM_TYPING').map((r) => r.params)).toEqual([
        { scene: 'private', targetId: 'bob', typing: true },
        { scene: 'private', targetId: 'bob', typing: false },
      ]),
    );
  });

  it('shows that Bob is typing until he stops', async () => {
    const chat = fakeChat();
    await openChat(chat);
    act(() => chat.server.push('IM_TYPING', typingPush('bob', 'bob', 'private', true)));
    expect((await screen.findByRole('status')).textContent).toBe('Typing…');
    act(() => chat.server.push('IM_TYPING', typingPush('bob', 'bob', 'private', false)));
    await waitFor(() => expect(screen.queryByText('Typing…')).toBeNull());
  });

  it('names who types in a group, in Chinese too', async () => {
    const chat = fakeChat();
    renderApp(chat.provide(<ChatRoom target={{ type: 'group', id: 'g1' }} emoji={undefined} />), {
      language: 'zh-CN',
    });
    await waitFor(() => expect(chat.server.requests('IM_HISTORY')).toHaveLength(1));
    act(() => {
      chat.server.push('IM_TYPING', typingPush('bob', 'g1', 'group', true));
      chat.server.push('IM_TYPING', typingPush('carol', 'g1', 'group', true));
      // Another group's typing is not this chat's.
      chat.server.push('IM_TYPING', typingPush('carol', 'g2', 'group', true));
    });
    expect(await screen.findByText('Bob、Carol 正在输入…')).toBeTruthy();
  });
});
