import { Controller, Get } from '@nestjs/common';

/** The process answers: what the stack's supervisor and compose's healthcheck probe. */
@Controller('health')
export class HealthController {
  @Get()
  health(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
