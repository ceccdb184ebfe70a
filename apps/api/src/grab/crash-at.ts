import { Logger } from '@nestjs/common';
import type { CrashPoint } from '@app/contract';

const logger = new Logger('Grab');

/** SIGKILL at a named point of a grab: the fault suite's way to die exactly there, nothing cleaned up. */
export function crashAt(point: CrashPoint, replicaId: string): never {
  logger.warn(`${replicaId} crashing on purpose (crash=${point})`);
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
}
