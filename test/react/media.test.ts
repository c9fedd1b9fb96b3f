// @vitest-environment jsdom
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { StrictMode, createElement, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type ImagePayload, type ParleyError } from '../../src/index.js';
import { ParleyProvider, useGroupPresence, useMessages } from '../../src/react/index.js';
import { FakeServer } from '../support/fake-server.js';
import { fakeIm } from '../support/fake-im.js';
import { aliToken, fakeStorage, fileOf } from '../upload/support.js';

// jsdom has object URLs but never loads media, so the SDK's probes would wait for their 10 s limit: without object
// URLs the SDK takes the sizes and durations given, as on a platform that cannot measure media.
const createObjectURL = Object.getOwnPropertyDescriptor(URL, 'createObjectURL');
beforeEach(() => {
  Object.defineProperty(URL, 'createObjectURL', { value: undefined, configurable: true, writable: true });
});
afterEach(() => {
  cleanup();
  if (createObjectURL) Object.defineProperty(URL, 'createObjectURL', createObjectURL);
});

function setup() {
  const server = new FakeServer();
  fakeIm(server, 'me');
  const storage = fakeStorage();
  let tokens = 0;
  server.handle('uploadToken', () => ({ code: 200, resultCode: 200, content: aliToken(++tokens) }));
  const client = createClient({
    host: 'h',
    appkey: 'k',
    modules: ['im'],
    transport: server.transport,
    uploadHttp: storage.http,
  });
  const wrapper = ({ children }: { children?: ReactNode }) =>
    createElement(
      StrictMode,
      null,
      createElement(ParleyProvider, { client, user: { id: 'me', data: { name: 'Me' } } }, children),
    );
  return { server, storage, client, wrapper };
}

/** Makes the fake storage wait until the returned function is called. */
function holdStorage(storage: ReturnType<typeof fakeStorage>): () => void {
  let release = () => undefined as void;
  storage.script.hold = new Promise<void>((resolve) => (release = resolve));
  return () => {
    storage.script.hold = undefined;
    release();
  };
}

describe('parley-im/react: media messages', () => {
  it('REACT-8: sendFile shows the message at once with its upload progress, then success with the URL', async () => {
    const { client, storage, server, wrapper } = setup();
    const { result } = renderHook(() => useMessages({ type: 'private', id: 'bob' }), { wrapper });
    await waitFor(() => expect(client.getConnectionStatus()).toBe('connected'));
    storage.script.progress = [0, 40];
    const release = holdStorage(storage);
    const file = fileOf('cat.png', 1234, 'image/png');
    let sending: Promise<unknown> | undefined;
    act(() => {
      sending = result.current.sendFile({ kind: 'image', file, width: 80, height: 60 });
    });
    const shown = result.current.messages.at(-1);
    expect(shown).toMatchObject({ type: 'image', status: 'sending', payload: { name: 'cat.png', url: '' } });
    const id = shown!.messageId;
    expect(result.current.uploads[id]).toEqual({ kind: 'image', file, progress: 0 });
    await waitFor(() => expect(result.current.uploads[id]?.progress).toBe(40));
    expect(server.requests('publishIM')).toHaveLength(0);

    release();
    await act(async () => {
      await sending;
    });
    const sent = result.current.messages.at(-1);
    expect(sent).toMatchObject({ messageId: id, status: 'success' });
    expect((sent?.payload as ImagePayload).url).toMatch(/^https:\/\/files\.test\/uploads\/im\/abc\//);
    expect(result.current.uploads).toEqual({});
    expect(JSON.parse(String(server.requests('publishIM')[0]?.params.p))).toMatchObject({ name: 'cat.png' });
  });

  it('REACT-8: a failed upload keeps the file, and retry sends the same file again as a new message', async () => {
    const { client, storage, wrapper } = setup();
    const { result } = renderHook(() => useMessages({ type: 'private', id: 'bob' }), { wrapper });
    await waitFor(() => expect(client.getConnectionStatus()).toBe('connected'));
    storage.script.status = 500;
    const file = fileOf('notes.pdf', 10);
    await act(async () => {
      await result.current.sendFile({ kind: 'file', file }).catch(() => undefined);
    });
    const failed = result.current.messages.at(-1)!;
    expect(failed).toMatchObject({ type: 'file', status: 'fail' });
    expect(result.current.uploads[failed.messageId]).toMatchObject({ kind: 'file', file });

    storage.script.status = 200;
    await act(async () => {
      await result.current.retry(failed);
    });
    expect(result.current.messages).toHaveLength(1);
    const again = result.current.messages[0]!;
    expect(again.messageId).not.toBe(failed.messageId);
    expect(again).toMatchObject({ type: 'file', status: 'success', payload: { name: 'notes.pdf', size: 10 } });
    expect(storage.posts.map((p) => p.file)).toEqual([file, file]);
    expect(result.current.uploads).toEqual({});
  });

  it('REACT-8: abort stops an upload under way; the message fails with the SDK error', async () => {
    const { client, storage, wrapper } = setup();
    const { result } = renderHook(() => useMessages({ type: 'private', id: 'bob' }), { wrapper });
    await waitFor(() => expect(client.getConnectionStatus()).toBe('connected'));
    holdStorage(storage);
    let outcome: Promise<unknown> | undefined;
    act(() => {
      outcome = result.current
        .sendFile({ kind: 'audio', file: fileOf('voice.mp3', 5, 'audio/mpeg') })
        .catch((e: ParleyError) => e);
    });
    const message = result.current.messages.at(-1)!;
    await waitFor(() => expect(storage.posts).toHaveLength(1));
    let aborted = false;
    act(() => {
      aborted = result.current.abort(message);
    });
    expect(aborted).toBe(true);
    expect(await outcome).toMatchObject({ content: 'Upload aborted.' });
    await waitFor(() => expect(result.current.messages.at(-1)).toMatchObject({ status: 'fail' }));
    expect(result.current.abort(result.current.messages.at(-1)!)).toBe(false);
  });

  it('REACT-8: a file the SDK refuses rejects with its 400 error and shows nothing', async () => {
    const { client, wrapper } = setup();
    const { result } = renderHook(() => useMessages({ type: 'private', id: 'bob' }), { wrapper });
    await waitFor(() => expect(client.getConnectionStatus()).toBe('connected'));
    const wrongType = await result.current
      .sendFile({ kind: 'image', file: fileOf('notes.pdf', 10, 'application/pdf') })
      .catch((e: ParleyError) => e);
    expect(wrongType).toMatchObject({ code: 400, content: 'Only gif,jpg,png,jpeg is supported image.' });
    const empty = await result.current
      .sendFile({ kind: 'video', file: fileOf('clip.mp4', 0, 'video/mp4') })
      .catch((e: ParleyError) => e);
    expect(empty).toMatchObject({ code: 400, content: 'File size is 0.' });
    expect(result.current.messages).toEqual([]);
  });

  it('REACT-8: a failed media message this list did not send cannot be retried without its file', async () => {
    const { client, wrapper } = setup();
    const { result } = renderHook(() => useMessages({ type: 'private', id: 'bob' }), { wrapper });
    await waitFor(() => expect(client.getConnectionStatus()).toBe('connected'));
    const stranger = {
      ...client.im.createFileMessage({ file: fileOf('a.pdf', 3), to: { type: 'private', id: 'bob' } }),
    };
    const refused = await result.current.retry({ ...stranger, status: 'fail' }).catch((e: ParleyError) => e);
    expect(refused).toMatchObject({ code: 400 });
  });
});

describe('parley-im/react: group presence', () => {
  it('REACT-9: useGroupPresence reads the online count and members, follows events, unsubscribes on unmount', async () => {
    const { server, wrapper } = setup();
    server.handle('imGroupOnlineCount', () => ({ code: 200, content: 2 }));
    server.handle('imGroupHereNow', () => ({
      code: 200,
      content: [
        { userId: 'me', userData: '{"name":"Me"}' },
        { userId: 'bob', userData: '{"name":"Bob"}' },
      ],
    }));
    const { result, unmount } = renderHook(() => useGroupPresence('g1'), { wrapper });
    await waitFor(() => expect(result.current.onlineCount).toBe(2));
    expect(result.current.members.map((m) => m.data['name'])).toEqual(['Me', 'Bob']);
    expect(server.requests('subscribeGroupPresence').at(-1)?.params).toEqual({ groupIds: ['g1'] });

    const presence = (action: string, userId: string, userAmount: number, groupId = 'g1') =>
      server.push('groupPresence', {
        c: JSON.stringify({
          groupId,
          userAmount,
          events: [{ userId, userData: JSON.stringify({ name: userId }), time: 1, action }],
        }),
      });
    act(() => presence('online', 'carol', 3));
    expect(result.current.onlineCount).toBe(3);
    expect(result.current.members.map((m) => m.id)).toEqual(['me', 'bob', 'carol']);
    act(() => presence('offline', 'bob', 2));
    act(() => presence('online', 'dan', 9, 'g2'));
    expect(result.current.onlineCount).toBe(2);
    expect(result.current.members.map((m) => m.id)).toEqual(['me', 'carol']);

    unmount();
    expect(server.requests('unsubscribeGroupPresence').at(-1)?.params).toEqual({ groupId: 'g1' });
  });
});
