import { apiError, send, sendJson } from './http-request';
import type { FaultName, FaultRequest, LabConfig, LabState, LoadEvent, LoadRequest, StepEvent } from './lab';
import type { SchedRoundView } from './scheduler';
import { SseParser } from './sse';

/** The typed client of the lab server's API, for its page (in a browser) and for tests (in Node). */
export class LabClient {
  /**
   * `baseUrl` ends before `/api`: `http://127.0.0.1:28080/lab` through nginx. `timeoutMs` bounds
   * every call but the streams, which last as long as their run (their `signal` cancels them).
   */
  constructor(
    readonly baseUrl: string,
    private readonly timeoutMs = 30_000,
  ) {}

  config(): Promise<LabConfig> {
    return this.json('GET', '/api/config');
  }

  state(): Promise<LabState> {
    return this.json('GET', '/api/state');
  }

  /** A fault into the running load; the answer says what was done (its effect arrives in the load's stream). */
  fault(name: FaultName, adminToken: string, body: FaultRequest = {}): Promise<{ fault: FaultName; detail: string }> {
    return this.json('POST', `/api/faults/${encodeURIComponent(name)}`, body, adminToken);
  }

  /** Be the scheduler: a new round (a coupon of one unit, two stepped buyers), with the admin token. */
  schedStart(strategy: string, adminToken: string): Promise<SchedRoundView> {
    return this.json('POST', '/api/sched/rounds', { strategy }, adminToken);
  }

  schedRound(id: string): Promise<SchedRoundView> {
    return this.json('GET', `/api/sched/rounds/${encodeURIComponent(id)}`);
  }

  /** Buyer `buyer` runs its next step; the answer comes once it reached the next one (or is still running). */
  schedStep(id: string, buyer: number, adminToken: string): Promise<SchedRoundView> {
    return this.json('POST', `/api/sched/rounds/${encodeURIComponent(id)}/step`, { buyer }, adminToken);
  }

  /** The round's lock lease runs out now. */
  schedExpireLease(id: string, adminToken: string): Promise<SchedRoundView> {
    return this.json('POST', `/api/sched/rounds/${encodeURIComponent(id)}/expire-lease`, {}, adminToken);
  }

  /** Runs a load and hands over its events until the stream ends; aborting `signal` cancels the run. */
  runLoad(request: LoadRequest, onEvent: (event: LoadEvent) => void, signal?: AbortSignal): Promise<void> {
    return this.stream('/api/runs', request, undefined, onEvent, signal);
  }

  /** Runs one walkthrough step; a step that injects a fault needs the admin token. */
  runStep<Result>(
    name: string,
    onEvent: (event: StepEvent<Result>) => void,
    options: { adminToken?: string; signal?: AbortSignal } = {},
  ): Promise<void> {
    return this.stream(`/api/steps/${encodeURIComponent(name)}`, {}, options.adminToken, onEvent, options.signal);
  }

  private json<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
    return sendJson<T>(this.baseUrl, {
      method,
      path,
      body,
      token: token || undefined,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
  }

  private async stream<E>(
    path: string,
    body: unknown,
    token: string | undefined,
    onEvent: (event: E) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    const res = await send(this.baseUrl, { method: 'POST', path, body, token: token || undefined, signal });
    if (!res.ok || !res.body) throw apiError(`POST ${path}`, res.status, await res.text());
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    const parser = new SseParser();
    for (;;) {
      const { done, value } = await reader.read();
      const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      for (const message of parser.push(text)) onEvent(JSON.parse(message.data) as E);
      if (done) return;
    }
  }
}
