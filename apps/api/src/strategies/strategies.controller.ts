import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/api-errors.decorator';
import { GrabService } from '../grab/grab.service';

@ApiTags('strategies')
@Controller('strategies')
export class StrategiesController {
  /** The list never changes while the replica runs: serialised once, not on every request. */
  private readonly body: string;

  constructor(grabs: GrabService) {
    this.body = JSON.stringify(grabs.strategies().map(({ name, fixes, breaks }) => ({ name, fixes, breaks })));
  }

  @Get()
  @Header('Content-Type', 'application/json; charset=utf-8')
  @ApiOperation({ summary: 'The strategies this replica offers, what each fixes and what still breaks' })
  @ApiOkResponse({ description: '[{ name, fixes, breaks }]' })
  @ApiErrors()
  list(): string {
    return this.body;
  }
}
