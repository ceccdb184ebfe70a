import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/api-errors.decorator';
import { RequestInvalidError } from '@app/apps-common';
import { LockEventLog, type ReplicaLockEvent } from './lock-event-log';

@ApiTags('observability')
@Controller('lock-events')
export class LockEventsController {
  constructor(private readonly log: LockEventLog) {}

  @Get()
  @ApiOperation({ summary: "This replica's recent lock events (for timelines)" })
  @ApiOkResponse({ description: "this replica's recent lock events" })
  @ApiErrors('REQUEST.INVALID')
  @ApiQuery({ name: 'resource', required: false, example: 'coupon:1' })
  @ApiQuery({ name: 'since', required: false, description: 'epoch ms' })
  list(@Query('resource') resource?: string, @Query('since') since?: string): ReplicaLockEvent[] {
    if (resource !== undefined && !/^[A-Za-z0-9:_-]{1,100}$/.test(resource))
      throw new RequestInvalidError('resource is not a resource name');
    if (since !== undefined && !/^[0-9]{1,15}$/.test(since))
      throw new RequestInvalidError('since must be epoch milliseconds');
    return this.log.list(resource, since ? Number(since) : 0);
  }
}
