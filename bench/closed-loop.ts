/** `amount` operations, `inFlight` under way at a time (a closed loop, as autocannon's connections): their rate/s. */
export async function closedLoop(
  amount: number,
  inFlight: number,
  op: (i: number) => Promise<unknown>,
): Promise<number> {
  const started = performance.now();
  let next = 0;
  const loop = async () => {
    while (next < amount) await op(next++);
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, amount) }, loop));
  const elapsedMs = performance.now() - started;
  return elapsedMs > 0 ? (amount * 1000) / elapsedMs : 0;
}
