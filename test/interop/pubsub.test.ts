import { describe, expect, it } from 'vitest';
import { createClient, type ParleyClient } from '../../src/index.js';
import { OPEN_APP, defer, startServer } from '../../server/test/helpers.js';
import { GoEasy, call, connectReference, eventually } from './support.js';

async function parley(url: string, id: string): Promise<ParleyClient> {
  const client = createClient({ host: url, appkey: OPEN_APP.appkey, modules: ['pubsub'] });
  defer(() => client.disconnect());
  await client.connect({ id, data: { name: id } });
  return client;
}

describe('reference client: pub/sub', () => {
  it('INTEROP-4: publish and subscribe both ways, qos 1, history, unsubscribe', async () => {
    const { url, port } = await startServer({ apps: [OPEN_APP] });
    await connectReference(port, OPEN_APP.appkey, { id: 'ref' }, ['pubsub']);
    const sdk = await parley(url, 'sdk');

    const atReference: Array<{ channel: string; content: string }> = [];
    await call((o) => GoEasy.pubsub.subscribe!(o), {
      channel: 'news',
      onMessage: (m: { channel: string; content: string }) => atReference.push(m),
    });
    const atSdk: string[] = [];
    await sdk.pubsub.subscribe({ channel: 'news', onMessage: (m) => atSdk.push(m.content) });

    await sdk.pubsub.publish({ channel: 'news', message: 'from parley', qos: 1 });
    await eventually(() => atReference.length === 1, 'the reference client to receive');
    expect(atReference[0]).toMatchObject({ channel: 'news', content: 'from parley' });

    await call((o) => GoEasy.pubsub.publish!(o), { channel: 'news', message: 'from reference', qos: 1 });
    await eventually(() => atSdk.includes('from reference'), 'the SDK to receive');

    const history = await call<{ content: { messages: Array<{ content: string }> } }>(
      (o) => GoEasy.pubsub.history!(o),
      {
        channel: 'news',
        limit: 10,
      },
    );
    const contents = (
      history.content?.messages ?? (history as unknown as { messages: Array<{ content: string }> }).messages
    ).map((m) => m.content);
    expect(contents).toEqual(['from parley', 'from reference']);

    await call((o) => GoEasy.pubsub.unsubscribe!(o), { channel: 'news' });
    await sdk.pubsub.publish({ channel: 'news', message: 'after', qos: 0 });
    await sdk.ping();
    expect(atReference.map((m) => m.content)).toEqual(['from parley', 'from reference']);
  });

  it('INTEROP-5: presence join and leave, and here-now', async () => {
    const { url, port } = await startServer({ apps: [OPEN_APP] });
    await connectReference(port, OPEN_APP.appkey, { id: 'ref', data: { name: 'Ref' } }, ['pubsub']);
    const events: Array<{ action: string; member: { id: string }; amount: number }> = [];
    await call((o) => GoEasy.pubsub.subscribePresence!(o), {
      channel: 'room',
      onPresence: (e: { action: string; member: { id: string }; amount: number }) => events.push(e),
    });
    const sdk = await parley(url, 'sdk');
    await sdk.pubsub.subscribe({ channel: 'room', presence: { enable: true }, onMessage: () => undefined });
    await eventually(() => events.some((e) => e.action === 'join' && e.member.id === 'sdk'), 'join');
    expect(events.find((e) => e.action === 'join')).toMatchObject({ amount: 1 });
    // Asked directly (no presence subscription on that channel, so the reference does not answer from its cache).
    await sdk.pubsub.subscribe({ channel: 'lobby', presence: { enable: true }, onMessage: () => undefined });
    const hereNow = await call<{ content: { amount: number; members: Array<{ id: string }> } }>(
      (o) => GoEasy.pubsub.hereNow!(o),
      { channel: 'lobby' },
    );
    expect(hereNow.content).toMatchObject({ amount: 1, members: [{ id: 'sdk', data: { name: 'sdk' } }] });
    await sdk.pubsub.unsubscribe({ channel: 'room' });
    await eventually(() => events.some((e) => e.action === 'leave' && e.member.id === 'sdk'), 'leave');
  });
});
