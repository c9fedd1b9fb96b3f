import { describe, expect, it } from 'vitest';
import { createClient, getInstance, MESSAGES, ParleyError, SDK } from '../src/index.js';
import { FakeServer } from './support/fake-server.js';

function make(options: Record<string, unknown>) {
  return () => createClient(options as never);
}

describe('setup validation (CONN-1)', () => {
  it.each([
    [{ appkey: 'k', modules: ['im'] }, "Invalid options:'host' is empty."],
    [{ host: '', appkey: 'k', modules: ['im'] }, "Invalid options:'host' is empty."],
    [{ hosts: [], appkey: 'k', modules: ['im'] }, "Invalid options:'host' is empty."],
    [{ host: 'h', modules: ['im'] }, "Invalid options:'appkey' is empty."],
    [{ host: 'h', appkey: ' ', modules: ['im'] }, "Invalid options:'appkey' is empty."],
    [{ host: 'h', appkey: 'k' }, "Invalid options: 'modules' must be nonempty array"],
    [{ host: 'h', appkey: 'k', modules: [] }, "Invalid options: 'modules' must be nonempty array"],
    [{ host: 'h', appkey: 'k', modules: 'im' }, "Invalid options: 'modules' must be nonempty array"],
    [{ host: 'h', appkey: 'k', modules: ['chat'] }, MESSAGES.unknownModule],
    [{ hosts: ['1', '2', '3', '4', '5', '6'], appkey: 'k', modules: ['im'] }, MESSAGES.tooManyHosts],
  ])('%j -> %s', (options, message) => {
    expect(make(options)).toThrow(ParleyError);
    try {
      make(options)();
    } catch (error) {
      expect(error).toMatchObject({ code: 400, content: message });
    }
  });

  it('modules are case-insensitive and de-duplicated', () => {
    const client = createClient({ host: 'h', appkey: 'k', modules: ['IM', 'im', 'PubSub'] });
    expect(client.modules).toEqual(['im', 'pubsub']);
  });
});

describe('connect validation (CONN-2)', () => {
  const server = new FakeServer();
  const im = () => createClient({ host: 'h', appkey: 'k', modules: ['im'], transport: server.transport });
  const pubsub = () => createClient({ host: 'h', appkey: 'k', modules: ['pubsub'], transport: server.transport });

  it.each([
    ['im', {}, 'TypeError: id requires number or string.'],
    ['im', { id: {} }, 'TypeError: id requires number or string.'],
    ['im', { id: 'u', data: 'x' }, 'TypeError: data requires object.'],
    ['im', { id: 'x'.repeat(61) }, 'id over max length 60'],
    ['pubsub', { id: 'x'.repeat(61) }, 'id over max length 60'],
    ['pubsub', { id: true }, 'TypeError: id requires number or string.'],
    ['pubsub', { id: 'u', data: [1] }, 'TypeError: data requires an object.'],
    ['pubsub', { id: 'u', data: null }, 'TypeError: data requires an object.'],
    ['pubsub', { id: 'u', data: { s: 'x'.repeat(300) } }, 'user.data-length limit 300 byte.'],
    ['pubsub', { id: 'u', data: { s: '字'.repeat(100) } }, 'user.data-length limit 300 byte.'],
    ['pubsub', { id: 'u', otp: 5 }, 'TypeError: otp requires string or function.'],
    ['pubsub', { wxmpId: 'x' }, 'TypeError: wxmpId requires an object.'],
    ['pubsub', { wxmpId: { openid: 'o' } }, 'wxmpId.appid is required.'],
    ['pubsub', { wxmpId: { appid: 'a', openid: '' } }, 'wxmpId.openid is required. requires string.'],
  ])('%s %j -> %s', async (kind, input, message) => {
    const client = kind === 'im' ? im() : pubsub();
    await expect(client.connect(input as never)).rejects.toMatchObject({ code: 400, content: message });
    expect(client.getConnectionStatus()).toBe('disconnected');
  });

  it('accepts the limits themselves', async () => {
    const client = pubsub();
    // 300 bytes exactly: {"s":"..."} is 8 bytes of frame
    const done = client.connect({
      id: 'x'.repeat(60),
      data: { s: 'x'.repeat(292) },
      wxmpId: { appid: 'a', openid: 'o' },
    });
    await done;
    expect(client.getConnectionStatus()).toBe('connected');
    await client.disconnect();
  });
});

describe("getInstance: the app's one client (CONN-15)", () => {
  const server = new FakeServer();
  const options = (modules: string[]) => ({ host: 'h', appkey: 'k', modules, transport: server.transport });
  const refused = { code: 400, content: 'Initialization failed. Please disconnect and try again.' };

  it('makes the client again only once the one before is disconnected', async () => {
    const first = getInstance(options(['im']));
    // Not connected yet: new options make a new client.
    const second = getInstance(options(['pubsub']));
    expect(second === first).toBe(false);
    expect(second.modules).toEqual(['pubsub']);
    const connecting = second.connect({ id: 'alice' });
    expect(() => getInstance(options(['im']))).toThrow(expect.objectContaining(refused) as unknown);
    await connecting;
    expect(() => getInstance(options(['im']))).toThrow(expect.objectContaining(refused) as unknown);
    // The app's connection stays as it was.
    expect(second.getConnectionStatus()).toBe('connected');
    expect(server.openSockets).toHaveLength(1);
    // Bad options are refused as createClient refuses them, and leave the client as it is.
    await second.disconnect();
    expect(() => getInstance({ ...options(['im']), appkey: '' })).toThrow(
      expect.objectContaining({ code: 400, content: MESSAGES.appkeyEmpty }) as unknown,
    );
    const third = getInstance(options(['im']));
    expect(third === second).toBe(false);
    expect(third.modules).toEqual(['im']);
  });

  it('makes it again after a connect that failed for good', async () => {
    const failing = new FakeServer();
    failing.refuse = { code: 401, content: 'Invalid otp' };
    const client = getInstance({ host: 'h', appkey: 'k', modules: ['im'], transport: failing.transport });
    await expect(client.connect({ id: 'alice' })).rejects.toMatchObject({ code: 401 });
    expect(client.getConnectionStatus()).toBe('connect_failed');
    expect(getInstance(options(['im'])) === client).toBe(false);
  });
});

describe('ParleyError', () => {
  it('carries code and content and serialises to {code, content}', () => {
    const error = new ParleyError(401, 'No permission');
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe('No permission');
    expect(JSON.parse(JSON.stringify(error))).toEqual({ code: 401, content: 'No permission' });
    expect(ParleyError.from(new Error('boom'))).toMatchObject({ code: 500, content: 'boom' });
    expect(ParleyError.from(error)).toBe(error);
  });

  it('message keys and texts are unique', () => {
    const texts = Object.values(MESSAGES);
    expect(new Set(texts).size).toBe(texts.length);
  });
});

describe('SDK identity', () => {
  it('SDK.version is the package version', async () => {
    const { readFile } = await import('node:fs/promises');
    const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(SDK).toEqual({ name: 'parley-im', version: pkg.version });
  });
});
