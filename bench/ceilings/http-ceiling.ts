import autocannon from 'autocannon';

/**
 * GET /strategies through nginx with the load's own client and connections: the HTTP stack's rate
 * with no database and no Redis behind it, timed from the start to the last answer.
 */
export async function httpCeiling(nginxUrl: string, amount: number, connections: number): Promise<number> {
  let answered = 0;
  let lastAnswerAt = 0;
  const startedAt = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url: `${nginxUrl}/strategies`, amount, connections: Math.min(connections, amount), timeout: 30, sampleInt: 50 },
      (error, done) => (error ? reject(error as Error) : resolve(done)),
    );
    instance.on('response', () => {
      answered += 1;
      lastAnswerAt = performance.now();
    });
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`GET /strategies failed under load: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  const elapsedMs = lastAnswerAt - startedAt;
  return elapsedMs > 0 ? (answered * 1000) / elapsedMs : 0;
}
