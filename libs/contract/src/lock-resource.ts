/**
 * The lock resource of a coupon, or of one of its stock segments: the name its lock events carry
 * (`GET /lock-events?resource=coupon:42`) and, through `lockKeys` of `@app/lock`, its Redis keys.
 */
export function couponLockResource(couponId: number | string, segment?: number | string): string {
  return segment === undefined ? `coupon:${couponId}` : `coupon:${couponId}:seg:${segment}`;
}
