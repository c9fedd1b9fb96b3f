/** An hour, in milliseconds. */
const HOUR_MS = 3_600_000;

/**
 * The shop's service guarantees (spec §9), the one place their numbers live on the server. The shipping promise, the
 * no-reason return and the late-delivery compensation are kept by the order service; damage refunds and counterfeit
 * compensation are claims the buyer files on their order and the operator decides (the claim service): upheld, the
 * buyer gets what they paid back, and for a counterfeit four times that as well, charged to the seller.
 */
export const SERVICE_GUARANTEES = {
  /** "Shipping promise: within 48 hours": a paid order is shipped within this long of its payment. */
  shipWithinMs: 48 * HOUR_MS,
  /**
   * "No-reason return: 7 days": a completed order may be returned for a refund this long after it completed; its
   * seller's proceeds wait until then.
   */
  returnWindowMs: 7 * 24 * HOUR_MS,
  /**
   * "Damage refund: within 72 hours": goods that arrive damaged are refunded when claimed while the order is shipped
   * or within this long of its completion.
   */
  damageRefundMs: 72 * HOUR_MS,
  /**
   * "(24 hours for food and fresh items)": the damage refund's time for an order holding a product of a category
   * marked fresh.
   */
  damageRefundFreshMs: 24 * HOUR_MS,
  /** Counterfeit goods are claimed while the order is shipped or within this long of its completion. */
  counterfeitClaimMs: 90 * 24 * HOUR_MS,
  /**
   * "Late-delivery compensation coupon: at least 3 yuan": fen credited to the buyer of an order shipped late (or not
   * shipped yet) past {@link SERVICE_GUARANTEES.shipWithinMs}, charged to its seller.
   */
  lateCompensationFen: 300,
  /**
   * "Counterfeit compensation: four times" what was paid: an upheld counterfeit claim gives the buyer this many times
   * the order's total on top of the total back, charged to the seller.
   */
  counterfeitTimes: 4,
} as const;
