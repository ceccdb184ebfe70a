import type { FastifyReply, FastifyRequest } from 'fastify';
import { sseFrame } from '@app/contract';

const KEEP_ALIVE_MS = 15_000;

/** A run's progress as server-sent events on the answer to its POST. */
export interface EventStream<E extends { type: string }> {
  send(event: E): void;
  end(): void;
}

/**
 * Starts a text/event-stream answer. `onGone` fires once if the client goes away before `end`
 * (tab closed, fetch aborted, nginx gave up): the caller cancels the run then.
 */
export function openEventStream<E extends { type: string }>(
  request: FastifyRequest,
  reply: FastifyReply,
  onGone: () => void,
): EventStream<E> {
  let ended = false;
  // The stream is written on the raw response: Fastify leaves the answer to us.
  reply.hijack();
  const req = request.raw;
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    // nginx passes each event on at once instead of buffering the answer.
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();
  const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  const gone = () => {
    clearInterval(keepAlive);
    if (!ended) {
      ended = true;
      onGone();
    }
  };
  res.once('close', gone);
  req.once('aborted', gone);
  return {
    send(event) {
      if (!ended) res.write(sseFrame(event.type, event));
    },
    end() {
      if (ended) return;
      ended = true;
      clearInterval(keepAlive);
      res.end();
    },
  };
}
