import { Logger } from '@nestjs/common';
import { RequestInvalidError } from '@app/apps-common';
import type { CrashPoint } from '@app/contract';
import type { GrabStrategy } from './strategy-catalogue';

const logger = new Logger('Grab');

/** SIGKILL at a named point of a grab: the fault suite's way to die exactly there, nothing cleaned up. */
export function crashAt(point: CrashPoint, replicaId: string): never {
  logger.warn(`${replicaId} crashing on purpose (crash=${point})`);
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
}

/** A crash point the strategy never passes would never fire: refused as bad input instead. */
export function checkCrashPoint(strategy: GrabStrategy, crash: CrashPoint | undefined): void {
  if (crash === 'after-reserve' && !strategy.reserves) {
    throw new RequestInvalidError(
      `crash=after-reserve needs a strategy that reserves before writing, not ${strategy.name}`,
    );
  }
  if (crash === 'after-accept' && strategy.deduction !== 'stream') {
    throw new RequestInvalidError(`crash=after-accept needs a strategy that accepts orders, not ${strategy.name}`);
  }
}
