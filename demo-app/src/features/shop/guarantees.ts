/**
 * The shop's service guarantees (spec §9), the one place their numbers live in the app; the server keeps the same in
 * its own. The product page shows them all; the shipping promise, the no-reason return and the late-delivery
 * compensation are kept on orders; damage refunds and counterfeit compensation are claims the buyer files on an order,
 * which the platform decides.
 */
export const SERVICE_GUARANTEES = {
  /** "Shipping promise: within 48 hours" of payment. */
  shipWithinHours: 48,
  /** "No-reason return: 7 days" after the order completed. */
  returnDays: 7,
  /** "Damage refund: within 72 hours" of receipt. */
  damageRefundHours: 72,
  /** "(24 hours for food and fresh items)". */
  damageRefundFreshHours: 24,
  /** "Late-delivery compensation coupon: at least 3 yuan", credited to the buyer's balance. */
  lateCompensationYuan: 3,
  /** "Counterfeit compensation: four times" what was paid. */
  counterfeitTimes: 4,
  /** How long after the order completed a counterfeit can be claimed. */
  counterfeitClaimDays: 90,
} as const;

/** The guarantees in the order the product page lists them. */
export const GUARANTEES = ['ship', 'return', 'damage', 'late', 'counterfeit'] as const;

/** One of {@link GUARANTEES}. */
export type Guarantee = (typeof GUARANTEES)[number];

/** The numbers each guarantee's words take (`guarantee.<name>_chip`, `_title` and `_text`). */
export const GUARANTEE_VALUES: Record<Guarantee, Record<string, number>> = {
  ship: { hours: SERVICE_GUARANTEES.shipWithinHours },
  return: { days: SERVICE_GUARANTEES.returnDays },
  damage: { hours: SERVICE_GUARANTEES.damageRefundHours, fresh: SERVICE_GUARANTEES.damageRefundFreshHours },
  late: { yuan: SERVICE_GUARANTEES.lateCompensationYuan, hours: SERVICE_GUARANTEES.shipWithinHours },
  counterfeit: { times: SERVICE_GUARANTEES.counterfeitTimes, days: SERVICE_GUARANTEES.counterfeitClaimDays },
};
