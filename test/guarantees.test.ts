import { describe, expect, it } from 'vitest';
import { SERVICE_GUARANTEES as APP } from '../demo-app/src/features/shop/guarantees.js';
import { SERVICE_GUARANTEES as SERVER } from '../server/src/shop/guarantees.js';

const HOUR_MS = 3_600_000;

describe('service guarantees (spec §9)', () => {
  it('the app shows the numbers the server keeps', () => {
    expect(APP).toEqual({
      shipWithinHours: SERVER.shipWithinMs / HOUR_MS,
      returnDays: SERVER.returnWindowMs / (24 * HOUR_MS),
      damageRefundHours: SERVER.damageRefundMs / HOUR_MS,
      damageRefundFreshHours: SERVER.damageRefundFreshMs / HOUR_MS,
      lateCompensationYuan: SERVER.lateCompensationFen / 100,
      counterfeitTimes: SERVER.counterfeitTimes,
      counterfeitClaimDays: SERVER.counterfeitClaimMs / (24 * HOUR_MS),
    });
  });
});
