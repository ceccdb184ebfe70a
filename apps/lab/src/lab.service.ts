import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationShutdown } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiClient, LAB_LIMITS, type LabConfig, type StrategyEntry } from '@app/contract';
import { LockKeys } from '../../../walkthrough/lock-keys';
import { allSteps } from '../../../walkthrough/steps';
import type { Step } from '../../../walkthrough/step';
import { AdminToken } from './common/admin-token';
import { controlClient } from './common/control-client';
import { labRedis } from './config/lab-redis';
import { LabSettings } from './config/lab-settings';
import { FAULTS } from './faults/faults';
import { offer, type Deployment } from './faults/offers';
import type { LoadClients, LoadRun } from './load/load-run';
import { RedisStockProbe } from './load/redis-stock-probe';
import { ScenarioSlot } from './scenario/scenario-slot';

/** The lab's state and wiring: the scenario slot, the token, the API clients, what this deployment can do. */
@Injectable()
export class LabService implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('Lab');
  readonly slot = new ScenarioSlot<LoadRun>();
  readonly token: AdminToken;
  readonly clients: LoadClients;
  readonly control?: (path: string) => Promise<unknown>;
  readonly deployment: Deployment;
  /** Redis as the replicas have it: lock keys (a stalled holder's fault waits for its lock), stock counters. */
  readonly keys: LockKeys;

  constructor(@Inject(LabSettings) readonly settings: LabSettings) {
    this.token = new AdminToken(settings.adminToken);
    // Loads last as long as their buyers wait: a roomy timeout.
    const nginx = new ApiClient({ baseUrl: settings.apiUrl, adminToken: settings.adminToken, timeoutMs: 150_000 });
    const direct = new Map(settings.replicas.map((r) => [r.id, nginx.at(r.url)]));
    this.keys = new LockKeys(labRedis(settings));
    this.clients = {
      nginx,
      replica: (id) => direct.get(id) ?? nginx,
      replicaIds: settings.replicas.map((r) => r.id),
      redisStock: new RedisStockProbe(this.keys.redis),
    };
    this.control = settings.controlUrl ? controlClient(settings.controlUrl) : undefined;
    this.deployment = {
      chaos: settings.chaosEnabled,
      control: this.control !== undefined,
      servers: settings.sparePorts.length > 0,
    };
  }

  strategies(): Promise<StrategyEntry[]> {
    return this.clients.nginx.strategies();
  }

  step(name: string): Step | undefined {
    return allSteps.find((s) => s.name === name);
  }

  async config(): Promise<LabConfig> {
    const offered = new Set((await this.strategies()).map((s) => s.name));
    const { chaos, control } = this.deployment;
    const notes = [
      ...(chaos
        ? []
        : ['Chaos is off (CHAOS_ENABLED=false): no fault, and no step that needs chaos options, can run.']),
      ...(control
        ? []
        : [
            'There is no stack control endpoint here (docker-compose): killing a replica, restarting Redis or PostgreSQL and the steps that need them are off.',
          ]),
    ];
    return {
      chaos,
      control,
      replicas: this.clients.replicaIds,
      limits: LAB_LIMITS,
      notes,
      faults: FAULTS.map(({ name, label, what, uses, targetsReplica }) => ({
        name,
        label,
        what,
        uses,
        targetsReplica,
        ...offer(uses, this.deployment),
      })),
      steps: allSteps.map((step) => {
        const uses = step.uses ?? [];
        const missing = step.requires.filter((s) => !offered.has(s));
        const here = missing.length
          ? { available: false, reason: `the API does not offer ${missing.join(', ')}` }
          : offer(uses, this.deployment);
        const { name, title, explain, expected, requires } = step;
        return { name, title, explain, expected, requires, uses, ...here };
      }),
    };
  }

  /** The replica after `id`, where a fault's second buyer goes. */
  otherReplica(id: string): string {
    const ids = this.clients.replicaIds;
    return ids[(ids.indexOf(id) + 1) % ids.length];
  }

  onApplicationShutdown(): void {
    this.keys.close();
  }

  /** On shutdown the running scenario is cancelled and given a moment to clean up after itself. */
  async beforeApplicationShutdown(): Promise<void> {
    if (!this.slot.cancelRunning()) return;
    this.logger.log('cancelling the running scenario before shutting down');
    for (let i = 0; i < 40 && this.slot.running(); i += 1) await sleep(100);
  }
}
