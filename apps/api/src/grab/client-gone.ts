import type { ServerResponse } from 'node:http';

/** The response a handler gets: Node's own (Express's `res` is one), or a reply wrapping it in `raw` (Fastify's). */
export type RawResponseHolder = ServerResponse | { readonly raw: ServerResponse };

/**
 * A signal aborted when the client goes away before its answer is sent: a grab still waiting for
 * its lock then leaves the wait (LOCK.ABORTED) and never runs its section.
 */
export function clientGone(res: RawResponseHolder): AbortSignal {
  const raw = 'raw' in res ? res.raw : res;
  const gone = new AbortController();
  raw.once('close', () => {
    if (!raw.writableFinished) gone.abort(new Error('the client closed the connection'));
  });
  return gone.signal;
}
