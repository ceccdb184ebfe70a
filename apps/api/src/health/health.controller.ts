import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { AppRedis } from '../redis/app-redis';

/** 200 when PostgreSQL and Redis answer, else 503 with which one did not. */
@ApiTags('observability')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly redis: AppRedis,
  ) {}

  @Get()
  @HealthCheck()
  check() {
    return this.health.check([
      () => this.db.pingCheck('postgres', { timeout: 1000 }),
      async () => {
        const indicator = this.indicators.check('redis');
        const up = await this.redis.ping().catch(() => false);
        return up ? indicator.up() : indicator.down();
      },
    ]);
  }
}
