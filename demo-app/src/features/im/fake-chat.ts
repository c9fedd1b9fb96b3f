/**
 * A connected messaging client for the chat screens' component tests: the SDK's real client over the in-process
 * fake server of the SDK's own tests (`test/support`), with its small IM server (private messages, history,
 * conversations, read marks, deletes), upload tokens and a fake storage behind the upload seam. Screens under
 * {@link FakeChat.provide} run the real `parley-im/react` hooks. Extend it with a method per thing a test needs to
 * happen from outside the screen, like {@link FakeChat.groupOnline}; answer other requests with `server.handle`.
 */
import { createClient, type ParleyClient } from 'parley-im';
import { ParleyProvider } from 'parley-im/react';
import { createElement, type ReactNode } from 'react';
import { FakeServer } from '../../../../test/support/fake-server';
import { fakeIm, type FakeIm } from '../../../../test/support/fake-im';
import { aliToken, fakeStorage } from '../../../../test/upload/support';

/** The fake world of one chat user. */
export interface FakeChat {
  me: string;
  server: FakeServer;
  /** The IM server: `fromPeer(peer, text)` delivers a message from another user. */
  im: FakeIm;
  /** The storage uploads go to: `script.progress`, `script.status`, `script.hold`; `posts` it received. */
  storage: ReturnType<typeof fakeStorage>;
  client: ParleyClient;
  /** `ui` inside a provider that connects the client as {@link FakeChat.me}. */
  provide(ui: ReactNode): ReactNode;
  /** Makes the storage wait until the returned function is called. */
  holdUploads(): () => void;
  /** Answers group here-now and online count for `groupId` with these members online. */
  groupOnline(groupId: string, members: Array<{ id: string; name: string }>): void;
  /** Pushes a group presence event, as the server does when a member comes or goes. */
  groupPresence(groupId: string, event: { action: string; id: string; name: string; count: number }): void;
}

/** A fake chat world for `me`. */
export function fakeChat(me = 'me'): FakeChat {
  const server = new FakeServer();
  const im = fakeIm(server, me);
  const storage = fakeStorage();
  let tokens = 0;
  server.handle('uploadToken', () => ({ code: 200, resultCode: 200, content: aliToken(++tokens) }));
  server.handle('IM_TYPING', () => ({ code: 200, resultCode: 200, content: null }));
  const client = createClient({
    host: 'chat.test',
    appkey: 'app-key',
    modules: ['im'],
    transport: server.transport,
    uploadHttp: storage.http,
  });
  return {
    me,
    server,
    im,
    storage,
    client,
    provide: (ui) => createElement(ParleyProvider, { client, user: { id: me, data: { name: 'Me' } } }, ui),
    holdUploads() {
      let release = () => undefined as void;
      storage.script.hold = new Promise<void>((resolve) => (release = resolve));
      return () => {
        storage.script.hold = undefined;
        release();
      };
    },
    groupOnline(groupId, members) {
      const list = members.map((m) => ({ userId: m.id, userData: JSON.stringify({ name: m.name }) }));
      server.handle('imGroupOnlineCount', (p) => ({ code: 200, content: p.groupId === groupId ? list.length : 0 }));
      server.handle('imGroupHereNow', (p) => ({ code: 200, content: p.groupId === groupId ? list : [] }));
    },
    groupPresence(groupId, { action, id, name, count }) {
      server.push('groupPresence', {
        c: JSON.stringify({
          groupId,
          userAmount: count,
          events: [{ userId: id, userData: JSON.stringify({ name }), time: Date.now(), action }],
        }),
      });
    },
  };
}

/**
 * jsdom has object URLs but never loads media, so the SDK's media probes would wait for their 10 s limit. Without
 * object URLs the SDK sends the sizes it was given, as on a platform that cannot measure media. Returns the undo.
 */
export function withoutMediaProbes(): () => void {
  const original = Object.getOwnPropertyDescriptor(URL, 'createObjectURL');
  Object.defineProperty(URL, 'createObjectURL', { value: undefined, configurable: true, writable: true });
  return () => {
    if (original) Object.defineProperty(URL, 'createObjectURL', original);
  };
}
