import { ApiPropertyOptional } from '@nestjs/swagger';
import { CRASH_POINTS, type CrashPoint } from '@app/contract';
import type { GrabOptions } from '../../grab/grab.types';

/** The numeric options of a grab and their ranges: read by GrabRequestPipe and by Swagger. */
export const GRAB_NUMBERS = {
  workMs: { min: 0, max: 5000, description: 'business work every strategy spends (where its design puts it)' },
  leaseMs: { min: 100, max: 600_000, description: 'chaos: the lock lease' },
  waitMs: { min: 0, max: 60_000, description: 'chaos: how long to wait for the lock' },
  pauseMs: { min: 0, max: 120_000, description: 'chaos: async stall inside the section' },
  freezeMs: { min: 0, max: 30_000, description: 'chaos: event-loop freeze inside the section' },
} as const;

/** The named crash points; `crash=1` is `after-acquire`, kept as an alias. */
export const CRASH_VALUES: readonly string[] = ['1', ...CRASH_POINTS];

/** The options honoured only with chaos enabled. */
export const CHAOS_OPTIONS = ['leaseMs', 'waitMs', 'pauseMs', 'freezeMs', 'crash', 'nested', 'step'] as const;

const range = (name: keyof typeof GRAB_NUMBERS) => ({
  minimum: GRAB_NUMBERS[name].min,
  maximum: GRAB_NUMBERS[name].max,
  description: GRAB_NUMBERS[name].description,
});

/** Query options of a grab: the strategy, the simulated work, and the chaos options. */
export class GrabQueryDto {
  @ApiPropertyOptional({ description: 'lock strategy (GET /strategies lists them)' })
  strategy?: string;

  @ApiPropertyOptional(range('workMs'))
  workMs?: number;

  @ApiPropertyOptional(range('leaseMs'))
  leaseMs?: number;

  @ApiPropertyOptional(range('waitMs'))
  waitMs?: number;

  @ApiPropertyOptional(range('pauseMs'))
  pauseMs?: number;

  @ApiPropertyOptional(range('freezeMs'))
  freezeMs?: number;

  @ApiPropertyOptional({
    enum: CRASH_VALUES,
    description: 'chaos: SIGKILL at this point of the grab (1 = after-acquire)',
  })
  crash?: string;

  @ApiPropertyOptional({ enum: ['1'], description: 'chaos: re-acquire the same lock inside the section' })
  nested?: '1';

  @ApiPropertyOptional({
    description: "chaos (admin): a stepped grab's gate id; it waits at each named step for the lab's scheduler",
  })
  step?: string;
}

/** The grab's options from its query (`crash=1` read as `after-acquire`), with the client's abort signal. */
export function grabOptions(query: GrabQueryDto, signal: AbortSignal): GrabOptions {
  const { crash, nested, ...rest } = query;
  return {
    ...rest,
    crash: crash === '1' ? 'after-acquire' : (crash as CrashPoint | undefined),
    nested: nested === '1',
    signal,
  };
}
