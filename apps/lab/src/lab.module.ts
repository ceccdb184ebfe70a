import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { LabErrorFilter } from './common/error.filter';
import { LabSettings, loadLabSettings } from './config/lab-settings';
import { HealthController } from './health.controller';
import { LabController } from './lab.controller';
import { LabService } from './lab.service';
import { SchedulerController } from './scheduler/scheduler.controller';

@Module({
  controllers: [LabController, HealthController, SchedulerController],
  providers: [
    { provide: LabSettings, useFactory: () => loadLabSettings() },
    { provide: APP_FILTER, useClass: LabErrorFilter },
    LabService,
  ],
})
export class LabModule {}
