import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { LockRuntime } from '@app/lock';
import { StockDatabase } from '@app/stock';
import { ApiErrors } from '../common/api-errors.decorator';
import { AppRedis } from '../redis/app-redis';

/**
 * 200 when PostgreSQL and Redis answer (on every connection grabs use) and, under WAIT, the Redis
 * primary has the replicas a lock must reach; else 503 with which one did not, and why.
 */
@ApiTags('observability')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: StockDatabase,
    private readonly indicators: HealthIndicatorService,
    private readonly redis: AppRedis,
    private readonly locks: LockRuntime,
  ) {}

  @Get()
  @HealthCheck()
  @ApiErrors('DEPENDENCY.UNAVAILABLE')
  check() {
    return this.health.check([
      async () => {
        const indicator = this.indicators.check('postgres');
        return (await this.db.ping(1000)) ? indicator.up() : indicator.down();
      },
      async () => {
        const indicator = this.indicators.check('redis');
        // Both connections: the app's own (stock, resets) and the lock runtime's, which grabs need.
        const [app, lock] = await Promise.all([this.redis.ping().catch(() => false), this.locks.ping()]);
        if (!app || !lock) return indicator.down();
        // Under WAIT a primary short of replicas (one just promoted, say) refuses every lock: not healthy.
        const replicas = await this.locks.replicasForWait();
        if (replicas && replicas.online < replicas.wanted) {
          return indicator.down({
            reason: `${replicas.online} of ${replicas.wanted} replica(s) online; a lock needs WAIT ${replicas.wanted}`,
          });
        }
        return indicator.up();
      },
    ]);
  }
}
