import { Inject, Injectable } from '@nestjs/common';
import { ChaosDisabledError } from '@app/apps-common';
import { AppConfig } from '../config/app-config';
import { CHAOS_OPTIONS, type GrabQueryDto } from './dto/grab-query.dto';

/** Chaos options are honoured only where the replica runs with CHAOS_ENABLED=true. */
@Injectable()
export class ChaosGate {
  constructor(@Inject(AppConfig) private readonly config: AppConfig) {}

  check(query: GrabQueryDto): void {
    this.checkGiven(CHAOS_OPTIONS.filter((o) => query[o] !== undefined));
  }

  /** Refuses the named chaos options, when any is given, where chaos is off. */
  checkGiven(given: readonly string[]): void {
    if (this.config.chaosEnabled) return;
    if (given.length)
      throw new ChaosDisabledError(
        `chaos options (${given.join(', ')}) are refused: this replica runs without CHAOS_ENABLED=true`,
      );
  }
}
