import { describe, expect, it } from 'vitest';
import { DELIVERIES_KEPT, DeliveryTracker, FIRST_ACK_WAIT_MS, SENDS_KEPT } from '../src/gateway/deliveries.js';

function tracker(start = 1_000) {
  const clock = { now: start, stopped: 0 };
  const deliveries = new DeliveryTracker(
    () => clock.now,
    () => {
      clock.stopped += 1;
    },
  );
  return { clock, deliveries };
}

describe('IM-24: what a connection has not acknowledged', () => {
  it('an acknowledgement answers for every push before it; what is left starts the replay', () => {
    const { deliveries } = tracker();
    expect(deliveries.horizon()).toBeUndefined();
    deliveries.pushed('a', 10);
    deliveries.pushed('b', 20);
    deliveries.pushed('c', 30);
    expect(deliveries.horizon()).toEqual({ from: 10, except: [] });
    deliveries.acked('b');
    expect(deliveries.horizon()).toEqual({ from: 30, except: [] });
    // An id never pushed here (customer service's, or one already answered for) changes nothing.
    deliveries.acked('a');
    deliveries.acked('elsewhere');
    expect(deliveries.horizon()).toEqual({ from: 30, except: [] });
    deliveries.acked('c');
    expect(deliveries.horizon()).toBeUndefined();
  });

  it('the oldest time counts, whatever order the pushes left in', () => {
    const { deliveries } = tracker();
    deliveries.pushed('late', 50);
    deliveries.pushed('early', 40);
    expect(deliveries.horizon()?.from).toBe(40);
  });

  it('my own sends since the oldest unacknowledged push are left out of the replay, and only those', () => {
    const { deliveries } = tracker();
    deliveries.sent('before-anything', 5);
    deliveries.pushed('a', 10);
    deliveries.sent('mine', 15);
    deliveries.pushed('b', 20);
    deliveries.sent('mine-later', 25);
    expect(deliveries.horizon()).toEqual({ from: 10, except: ['mine', 'mine-later'] });
    deliveries.acked('a');
    expect(deliveries.horizon()).toEqual({ from: 20, except: ['mine-later'] });
    deliveries.acked('b');
    expect(deliveries.horizon()).toBeUndefined();
    // A push that comes later with an older time than a send of mine still leaves that send out.
    deliveries.sent('mine-latest', 40);
    deliveries.pushed('c', 35);
    expect(deliveries.horizon()).toEqual({ from: 35, except: ['mine-latest'] });
    // Only the latest sends are kept.
    for (let n = 0; n < SENDS_KEPT; n++) deliveries.sent(`more${n}`, 50 + n);
    expect(deliveries.horizon()?.except).toHaveLength(SENDS_KEPT);
    expect(deliveries.horizon()?.except).not.toContain('mine-latest');
  });

  it(`past ${DELIVERIES_KEPT} unacknowledged pushes, the oldest let go still start the replay`, () => {
    const { deliveries } = tracker();
    deliveries.acked('none yet');
    for (let n = 0; n < DELIVERIES_KEPT + 5; n++) deliveries.pushed(`m${n}`, 100 + n);
    expect(deliveries.horizon()?.from).toBe(100);
    // Acknowledging one still held answers for those let go before it.
    deliveries.acked(`m${DELIVERIES_KEPT}`);
    expect(deliveries.horizon()?.from).toBe(100 + DELIVERIES_KEPT + 1);
  });

  it('a connection that acknowledges nothing for a while after its first push is no longer watched', () => {
    const { clock, deliveries } = tracker();
    deliveries.pushed('a', 10);
    clock.now += FIRST_ACK_WAIT_MS;
    deliveries.pushed('b', 20);
    expect(deliveries.watching).toBe(true);
    expect(deliveries.horizon()?.from).toBe(10);
    clock.now += 1;
    deliveries.pushed('c', 30);
    expect(deliveries.watching).toBe(false);
    expect(clock.stopped).toBe(1);
    expect(deliveries.horizon()).toBeUndefined();
    deliveries.acked('c');
    deliveries.pushed('d', 40);
    expect(deliveries.horizon()).toBeUndefined();
  });

  it('one that stops acknowledging after it has once is watched on, and so is one that went quiet', () => {
    const { clock, deliveries } = tracker();
    deliveries.pushed('a', 10);
    deliveries.acked('a');
    deliveries.pushed('b', 20);
    clock.now += FIRST_ACK_WAIT_MS * 10;
    deliveries.pushed('c', 30);
    expect(deliveries.horizon()).toEqual({ from: 20, except: [] });
    // Never acknowledging, and asked only when the link goes: the wait counts then too.
    const quiet = tracker();
    quiet.deliveries.pushed('x', 10);
    quiet.clock.now += FIRST_ACK_WAIT_MS + 1;
    expect(quiet.deliveries.horizon()).toBeUndefined();
    expect(quiet.clock.stopped).toBe(1);
  });
});
