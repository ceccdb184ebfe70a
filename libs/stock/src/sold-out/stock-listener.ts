import { Client, type Notification } from 'pg';
import {
  ACK_CHANNEL,
  HEARTBEAT_MS,
  LISTENER_NAME,
  parseNotice,
  RESET_CHANNEL,
  TRUST_MS,
  type ResetAck,
  type ResetNotice,
} from './reset-channel';
import type { SoldOutMemo } from './sold-out-memo';

/** Acknowledgements of one reset, as they arrive. */
export interface AckCollector {
  /** Resolves with the pids among `pids` that did not acknowledge within `timeoutMs`. */
  wait(pids: readonly number[], timeoutMs: number): Promise<number[]>;
  cancel(): void;
}

/**
 * This process's listening session (see reset-channel.ts): it keeps the sold-out memo told of
 * every reset, acknowledges each, and collects the acknowledgements of the resets this process
 * makes. A heartbeat proves the session alive to the memo; one unanswered for TRUST_MS drops the
 * session. It reconnects by itself; while it is down the memo trusts nothing.
 */
export class StockListener {
  private client?: Client;
  private heartbeat?: NodeJS.Timeout;
  private closed = false;
  private readonly collecting = new Map<string, { acked: Set<number>; changed?: () => void }>();

  constructor(
    private readonly databaseUrl: string,
    private readonly memo: SoldOutMemo,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  start(): void {
    void this.connectLoop();
  }

  expectAcks(resetId: string): AckCollector {
    const state: { acked: Set<number>; changed?: () => void } = { acked: new Set() };
    this.collecting.set(resetId, state);
    return {
      wait: async (pids, timeoutMs) => {
        const deadline = Date.now() + timeoutMs;
        const missing = () => pids.filter((pid) => !state.acked.has(pid));
        while (missing().length > 0 && Date.now() < deadline) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, deadline - Date.now());
            state.changed = () => (clearTimeout(timer), resolve());
          });
        }
        return missing();
      },
      cancel: () => this.collecting.delete(resetId),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.dropped(client);
    await client?.end().catch(() => undefined);
  }

  private async connectLoop(): Promise<void> {
    for (let delayMs = 100; !this.closed; delayMs = Math.min(delayMs * 2, 2000)) {
      try {
        await this.connect();
        return;
      } catch (error) {
        this.log(`stock listener: ${(error as Error).message}; retrying in ${delayMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
    }
  }

  private async connect(): Promise<void> {
    const client = new Client({
      connectionString: this.databaseUrl,
      application_name: `${LISTENER_NAME}:starting`,
      connectionTimeoutMillis: 2000,
      keepAlive: true,
      keepAliveInitialDelayMillis: HEARTBEAT_MS,
    });
    client.on('notification', (n) => this.onNotification(client, n));
    client.on('error', () => this.dropped(client));
    client.on('end', () => this.dropped(client));
    let confirmedAt = 0;
    try {
      await client.connect();
      confirmedAt = performance.now();
      await client.query(`LISTEN ${RESET_CHANNEL}; LISTEN ${ACK_CHANNEL}`);
      await client.query('SELECT pg_advisory_lock_shared(hashtext($1))', [RESET_CHANNEL]);
      await client.query(`SET application_name = '${LISTENER_NAME}'`);
      await client.query('SELECT pg_advisory_unlock_shared(hashtext($1))', [RESET_CHANNEL]);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) return void client.end().catch(() => undefined);
    this.client = client;
    this.memo.listeningStarted(confirmedAt);
    this.heartbeat = setInterval(() => this.beat(client), HEARTBEAT_MS).unref();
  }

  /** A round trip on the session: answered, every notice committed before it was delivered. */
  private beat(client: Client): void {
    const sentAt = performance.now();
    const silent = setTimeout(() => this.dropped(client), TRUST_MS).unref();
    client.query('SELECT 1').then(
      () => (clearTimeout(silent), this.client === client && this.memo.confirmed(sentAt)),
      () => (clearTimeout(silent), this.dropped(client)),
    );
  }

  private dropped(client: Client | undefined): void {
    if (!client || this.client !== client) return;
    this.client = undefined;
    clearInterval(this.heartbeat);
    this.memo.listeningStopped();
    client.end().catch(() => undefined);
    if (!this.closed) void this.connectLoop();
  }

  private onNotification(client: Client, n: Notification): void {
    if (n.channel === RESET_CHANNEL) {
      const notice = parseNotice<ResetNotice>(n.payload, 'resetId');
      if (!notice) return;
      this.memo.reset(Number(notice.couponId));
      const ack: ResetAck = { resetId: notice.resetId };
      void client.query('SELECT pg_notify($1, $2)', [ACK_CHANNEL, JSON.stringify(ack)]).catch(() => undefined);
    } else if (n.channel === ACK_CHANNEL) {
      // The acknowledging session is the notifying one: its backend pid is the one reset listed.
      const ack = parseNotice<ResetAck>(n.payload, 'resetId');
      const state = ack && this.collecting.get(ack.resetId);
      if (!state) return;
      state.acked.add(n.processId);
      state.changed?.();
    }
  }
}
