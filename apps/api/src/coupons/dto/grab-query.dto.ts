import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';

// Query values arrive as strings: plain digits become numbers, anything else stays a string
// and fails @IsInt with a clear message ("1e3", "-1", "abc", "").
const digits = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^[0-9]{1,9}$/.test(value) ? Number(value) : value,
  );

/** Query options of a grab: the strategy, the simulated work, and the chaos options. */
export class GrabQueryDto {
  @ApiPropertyOptional({ description: 'lock strategy (GET /strategies lists them)' })
  @IsOptional()
  @IsString()
  strategy?: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 5000, description: 'business work inside the critical section' })
  @IsOptional()
  @digits()
  @IsInt()
  @Min(0)
  @Max(5000)
  workMs?: number;

  @ApiPropertyOptional({ minimum: 100, maximum: 600_000, description: 'chaos: the lock lease' })
  @IsOptional()
  @digits()
  @IsInt()
  @Min(100)
  @Max(600_000)
  leaseMs?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: 60_000, description: 'chaos: how long to wait for the lock' })
  @IsOptional()
  @digits()
  @IsInt()
  @Min(0)
  @Max(60_000)
  waitMs?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: 120_000, description: 'chaos: async stall inside the section' })
  @IsOptional()
  @digits()
  @IsInt()
  @Min(0)
  @Max(120_000)
  pauseMs?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: 30_000, description: 'chaos: event-loop freeze inside the section' })
  @IsOptional()
  @digits()
  @IsInt()
  @Min(0)
  @Max(30_000)
  freezeMs?: number;

  @ApiPropertyOptional({ enum: ['1'], description: 'chaos: die right after acquiring the lock' })
  @IsOptional()
  @IsIn(['1'])
  crash?: '1';

  @ApiPropertyOptional({ enum: ['1'], description: 'chaos: re-acquire the same lock inside the section' })
  @IsOptional()
  @IsIn(['1'])
  nested?: '1';
}

export const CHAOS_OPTIONS = ['leaseMs', 'waitMs', 'pauseMs', 'freezeMs', 'crash', 'nested'] as const;
