import { parseArgs } from 'node:util';
import { readStack } from '../stack/stack';
import { runHoldRaces, type HoldRaceReport } from './hold-races';
import { runCommand } from '../stack/run-command';

// npx tsx tools/holds/cli.ts [--races N] [--lead-ms N]: confirm-versus-expiry races on the running
// stack, each confirm sent at its hold's deadline (less lead-ms) ± 5 ms; then what the database holds.
function render(r: HoldRaceReport): string {
  const rehold = [...r.reheldAfterMs].sort((a, b) => a - b);
  return [
    `${r.races} races, confirms sent ${r.offsetMs.min.toFixed(1)}…${r.offsetMs.max.toFixed(1)} ms from their deadline (${r.offsetMs.within} within ±5 ms)`,
    `answers: ${r.confirmed} confirmed, ${r.refused} HOLD.EXPIRED, ${r.otherAnswers} other; ${r.answersAgainstDatabase} against the database`,
    `holds with two outcomes: ${r.twoOutcomes}; units returned twice: ${r.returnedTwice}`,
    `stock ${r.audit.stock} + held ${r.audit.held} + confirmed ${r.audit.confirmed} = ${r.audit.stock + (r.audit.held ?? 0) + (r.audit.confirmed ?? 0)} of ${r.audit.initialStock}: ${r.exact ? 'exact' : 'NOT exact'}`,
    `an expired unit held again ${rehold[0]}…${rehold.at(-1)} ms after its deadline (${rehold.length} samples)`,
    `the naive path, raced once: its one unit granted ${r.naiveGrants} time(s)`,
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { races: { type: 'string', default: '1000' }, 'lead-ms': { type: 'string', default: '0' } },
  });
  const races = Number(values.races);
  if (!Number.isInteger(races) || races < 1) throw new Error('usage: tsx tools/holds/cli.ts [--races N]');
  const stack = await readStack(process.env.STACK_DIR);
  if (!stack) throw new Error('no stack runs (npm run stack:up with CHAOS_ENABLED=true)');
  console.log(
    render(await runHoldRaces(stack, { races, leadMs: Number(values['lead-ms']), log: (line) => console.error(line) })),
  );
}

runCommand(main);
