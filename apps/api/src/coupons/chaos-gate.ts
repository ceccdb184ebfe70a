import { Inject, Injectable } from '@nestjs/common';
import { ChaosDisabledError } from '@app/apps-common';
import { AdminToken } from '../common/admin.guard';
import { AppConfig } from '../config/app-config';
import { CHAOS_OPTIONS, type GrabQueryDto } from './dto/grab-query.dto';

/**
 * Chaos options are honoured only where the replica runs with CHAOS_ENABLED=true. A stepped grab
 * (`step`) also needs the admin token, as the lab's faults do: it holds a request, and its lock, open.
 */
@Injectable()
export class ChaosGate {
  private readonly admin: AdminToken;

  constructor(@Inject(AppConfig) private readonly config: AppConfig) {
    this.admin = new AdminToken(config.adminToken);
  }

  check(query: GrabQueryDto, authorization?: string): void {
    this.checkGiven(CHAOS_OPTIONS.filter((o) => query[o] !== undefined));
    if (query.step !== undefined) this.admin.assert(authorization, 'a stepped grab (step)');
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
