/**
 * Model-based test of pub/sub delivery: three clients of the SDK against the real server run generated sequences
 * of subscribes, unsubscribes, publishes (qos 0 and 1) and restarts over two channels. After each step every client
 * must have received exactly the messages published on its channels while it was subscribed, once each and in
 * order (PUB-7..PUB-9), and each channel's history must hold everything published on it, oldest first (PUB-11).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createClient, type ParleyClient, type PubsubMessage } from '../../src/index.js';
import { OPEN_APP, defer, startServer, storesUnderTest } from '../../server/test/helpers.js';
import { FUZZ_RUNS } from '../../server/test/fuzz-support.js';

const DEVICES = ['d1', 'd2', 'd3'] as const;
type Device = (typeof DEVICES)[number];
const CHANNELS = ['news', 'chat'] as const;
type Channel = (typeof CHANNELS)[number];

type Step =
  | { kind: 'subscribe'; device: Device; channel: Channel }
  | { kind: 'unsubscribe'; device: Device; channel: Channel }
  | { kind: 'publish'; device: Device; channel: Channel; qos: 0 | 1 }
  | { kind: 'restart'; device: Device };

const device = fc.constantFrom(...DEVICES);
const channel = fc.constantFrom(...CHANNELS);
const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('subscribe' as const), device, channel }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('unsubscribe' as const), device, channel }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('publish' as const),
      device,
      channel,
      qos: fc.constantFrom(0 as const, 1),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('restart' as const), device }) },
);

/** One device: its client, what it subscribes, what it received and what it should have. */
interface Live {
  client: ParleyClient;
  subscribed: Set<Channel>;
  received: string[];
  expected: string[];
}

describe.each(storesUnderTest())('pub/sub delivery against a model, on %s', (_name, store) => {
  it('every client gets what was published on its channels while it listened, once, in order', async () => {
    const { url } = await startServer({ rateLimit: { perSecond: 100_000, burst: 100_000 }, ...store() });
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(stepArbitrary, { minLength: 1, maxLength: 30 }), async (steps) => {
        round += 1;
        const wire = (c: Channel) => `${c}-${round}`;
        const start = async (d: Device): Promise<Live> => {
          const client = createClient({ host: url, appkey: OPEN_APP.appkey, modules: ['pubsub'] });
          defer(() => client.disconnect());
          await client.connect({ id: `${d}-${round}`, data: {} });
          return { client, subscribed: new Set(), received: [], expected: [] };
        };
        const live = Object.fromEntries(
          await Promise.all(DEVICES.map(async (d) => [d, await start(d)] as const)),
        ) as Record<Device, Live>;
        const published = new Map<Channel, string[]>(CHANNELS.map((c) => [c, []]));
        let sent = 0;
        for (const [i, step] of steps.entries()) {
          const here = live[step.device];
          if (step.kind === 'subscribe') {
            const onMessage = (m: PubsubMessage) => here.received.push(m.content);
            await here.client.pubsub.subscribe({ channel: wire(step.channel), onMessage });
            here.subscribed.add(step.channel);
          } else if (step.kind === 'unsubscribe') {
            if (!here.subscribed.has(step.channel)) continue;
            await here.client.pubsub.unsubscribe({ channel: wire(step.channel) });
            here.subscribed.delete(step.channel);
          } else if (step.kind === 'publish') {
            sent += 1;
            const content = `m${sent}`;
            await here.client.pubsub.publish({ channel: wire(step.channel), message: content, qos: step.qos });
            published.get(step.channel)?.push(content);
            for (const d of DEVICES) if (live[d].subscribed.has(step.channel)) live[d].expected.push(content);
          } else {
            await here.client.disconnect();
            live[step.device] = await start(step.device);
          }
          // Every push a step caused has been written before the answer to a later request on its socket.
          await Promise.all(DEVICES.map((d) => live[d].client.ping()));
          for (const d of DEVICES) {
            expect(live[d].received, `step ${i} ${JSON.stringify(step)}: ${d} received`).toEqual(live[d].expected);
          }
        }
        for (const c of CHANNELS) {
          const { messages } = await live.d1.client.pubsub.history({ channel: wire(c), limit: 100 });
          expect(
            messages.map((m) => m.content),
            `history of ${c}`,
          ).toEqual(published.get(c));
        }
      }),
      { numRuns: Math.max(5, Math.ceil(FUZZ_RUNS / 20)) },
    );
  }, 300_000);
});
