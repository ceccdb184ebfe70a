import type { Step } from '../step';
import { failoverStep, failoverWaitStep } from './failover.step';
import { asyncOrdersStep } from './async-orders.step';
import { baselinesStep } from './baselines.step';
import { batchingStep } from './batching.step';
import { fencingStep } from './fencing.step';
import { lostAnswerStep } from './lost-answer.step';
import { nestedStep } from './nested.step';
import { noneStep } from './none.step';
import { ownerCheckedStep } from './owner-checked.step';
import { redlockStep } from './redlock.step';
import { segmentedStep } from './segmented.step';
import { setNxPxStep } from './set-nx-px.step';
import { setnxCrashStep } from './setnx-crash.step';
import { strandedReservationStep } from './stranded-reservation.step';
import { synchronizedStep } from './synchronized.step';
import { t0BurstStep } from './t0-burst.step';
import { unpaidHoldsStep } from './unpaid-holds.step';
import { watchdogFreezeStep } from './watchdog-freeze.step';
import { watchdogPauseStep } from './watchdog-pause.step';

/** Every step, in the order the story is told. Each stands alone: any subset runs in any order. */
export const allSteps: readonly Step[] = [
  noneStep,
  synchronizedStep,
  setnxCrashStep,
  setNxPxStep,
  ownerCheckedStep,
  nestedStep,
  watchdogPauseStep,
  watchdogFreezeStep,
  segmentedStep,
  failoverStep,
  // Beyond the seeds: each runs only where the API offers its strategy.
  fencingStep,
  redlockStep,
  failoverWaitStep,
  baselinesStep,
  batchingStep,
  // Faults at named points of a grab: after the commit, and between reservation and write.
  lostAnswerStep,
  strandedReservationStep,
  // Answer first, persist later: what the early answer costs.
  asyncOrdersStep,
  // Beyond a grab: holds that pay, never pay, or pay as their deadline passes.
  unpaidHoldsStep,
  // Before the grab: a crowd at the opening second, and a waiting room in front of it.
  t0BurstStep,
];
