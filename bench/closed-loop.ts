/** `amount` operations, `inFlight` under way at any time: a closed loop, as autocannon's connections are. */
export async function closedLoop(amount: number, inFlight: number, op: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const loop = async () => {
    while (next < amount) await op(next++);
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, amount) }, loop));
}
