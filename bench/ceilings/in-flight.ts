/**
 * Runs `amount` operations with `inFlight` of them under way at any time (a closed loop, as
 * autocannon's connections are) and returns how many completed per second. Operation i gets i.
 */
export async function rateInFlight(
  amount: number,
  inFlight: number,
  op: (i: number) => Promise<unknown>,
): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: Math.min(inFlight, amount) }, async () => {
      while (next < amount) await op(next++);
    }),
  );
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  return elapsedMs > 0 ? (amount * 1000) / elapsedMs : 0;
}
