import { Inject, Injectable } from '@nestjs/common';
import { stepGateKeys } from '@app/contract';
import { asCluster } from '@app/lock';
import { AppConfig } from '../config/app-config';
import { AppRedis } from '../redis/app-redis';
import { StepGate, type GatePort } from './step-gate';

/**
 * Gates of stepped grabs in Redis, so the lab steps a grab on whichever replica it runs: the grab
 * SETs where it is, and BLPOPs its own "go" list on a connection of its own (BLPOP blocks the
 * connection), which the lab RPUSHes to.
 */
@Injectable()
export class StepGates {
  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly redis: AppRedis,
  ) {}

  open(gate: string): StepGate {
    const keys = stepGateKeys(gate);
    // Kept a while past the hold: the lab reads the last mark after the grab ends.
    const keepMs = this.config.stepHoldMs * 4;
    const app = this.redis.client;
    // Queued until connected: the first BLPOP is sent before the new connection is ready.
    const cluster = asCluster(app);
    const blocking = cluster
      ? cluster.duplicate(undefined, { enableOfflineQueue: true })
      : app.duplicate({ enableOfflineQueue: true });
    blocking.on('error', () => undefined);
    const port: GatePort = {
      announce: async (mark) => {
        await app.set(keys.at, mark, 'PX', keepMs);
      },
      awaitGo: async (ms) => {
        // BLPOPs of a second at most, within the connection's command timeout.
        for (const deadline = Date.now() + ms; Date.now() < deadline;) {
          const wait = Math.max(0.01, Math.min(1, (deadline - Date.now()) / 1000));
          if ((await blocking.blpop(keys.go, wait)) !== null) return true;
        }
        return false;
      },
      close: () => blocking.disconnect(),
    };
    return new StepGate(port, this.config.stepHoldMs);
  }
}
