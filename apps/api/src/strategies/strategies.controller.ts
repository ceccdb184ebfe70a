import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/api-errors.decorator';
import { GrabService } from '../grab/grab.service';

@ApiTags('strategies')
@Controller('strategies')
export class StrategiesController {
  constructor(private readonly grabs: GrabService) {}

  @Get()
  @ApiOperation({ summary: 'The strategies this replica offers, what each fixes and what still breaks' })
  @ApiOkResponse({ description: '[{ name, fixes, breaks }]' })
  @ApiErrors()
  list(): { name: string; fixes: string; breaks: string }[] {
    return this.grabs.strategies().map(({ name, fixes, breaks }) => ({ name, fixes, breaks }));
  }
}
