import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { ApiClient } from '@app/contract';
import { ensureStack } from '../stack/stack';
import { CORRECT_STRATEGIES, parseChaosArgs } from './options';
import { DEFAULT_HOLDS_SCENARIO, HOLDS_FAULTS, runHoldsScenario, type HoldsScenarioResult } from './holds-scenario';
import { runScenario, type ChaosReport, type ScenarioResult } from './scenario';
import {
  renderDiedNotes,
  renderFailures,
  renderHoldsTable,
  renderLossNotes,
  renderTable,
  verdictCell,
  withDocumentedLoss,
} from './table';
import { runCommand } from '../stack/run-command';

// npm run chaos -- [--faults replica-kill,redis-restart,postgres-restart] [--strategies watchdog,db-atomic] [--only holds] …
async function main(): Promise<void> {
  const options = parseChaosArgs(process.argv.slice(2));
  const stack = await ensureStack();
  const results: ScenarioResult[] = [];
  const holds: HoldsScenarioResult[] = [];
  const startedAt = new Date().toISOString();
  const waitReplicas = Number(process.env.LOCK_WAIT_REPLICAS ?? 0);
  try {
    const offered = (await new ApiClient({ baseUrl: stack.info.nginxUrl }).strategies()).map((s) => s.name);
    const missing = (options.strategies ?? []).filter((s) => !offered.includes(s));
    if (missing.length)
      throw new Error(`the API does not offer ${missing.join(', ')} (offered: ${offered.join(', ')})`);
    const strategies = options.strategies ?? CORRECT_STRATEGIES.filter((s) => offered.includes(s));
    const s = options.scenario;
    console.log(`machine: Node ${process.versions.node}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}`);
    if (options.only !== 'holds')
      console.log(
        `chaos: ${s.requests} grabs per run through ${stack.info.nginxUrl}, ${s.concurrency} connections, ${s.ratePerSec}/s, ` +
          `client timeout ${s.timeoutMs} ms, stock ${s.stock}; fault at ${s.faultAtMs} ms, dependencies down ${s.downMs} ms; ` +
          `query ${JSON.stringify(s.query)}; Redis ${stack.info.redisMode}` +
          (stack.info.redisAppendFsync ? `, REDIS_APPENDFSYNC=${stack.info.redisAppendFsync}` : '') +
          '\n',
      );
    for (const fault of options.only === 'holds' ? [] : options.faults) {
      for (const strategy of strategies) {
        process.stdout.write(`${fault} / ${strategy} … `);
        const result = await runScenario(stack.info, fault, strategy, s, waitReplicas);
        console.log(verdictCell(result, 'FAILED'));
        results.push(result);
      }
    }
    const holdsOptions = {
      ...DEFAULT_HOLDS_SCENARIO,
      downMs: s.downMs,
      timeoutMs: s.timeoutMs,
      recoveryTimeoutMs: s.recoveryTimeoutMs,
    };
    const holdsFaults = options.only === 'grabs' ? [] : options.faults.filter((f) => HOLDS_FAULTS.includes(f));
    if (holdsFaults.length)
      console.log(
        `holds: ${holdsOptions.holds} holds of ${holdsOptions.holdMs} ms per run; replica-kill: a third confirmed on the ` +
          `killed replica, stalled until expiry, a third through nginx around the kill; postgres-restart: down past every deadline`,
      );
    for (const fault of holdsFaults) {
      process.stdout.write(`${fault} / holds … `);
      const result = await runHoldsScenario(stack.info, fault, holdsOptions);
      console.log(result.ok ? 'ok' : 'FAILED');
      holds.push(result);
    }
  } finally {
    if (stack.started) await stack.stop();
  }
  if (results.length) console.log(`\n${renderTable(results)}`);
  if (holds.length) console.log(`\n${renderHoldsTable(holds)}`);
  const notes = [...renderDiedNotes(results), ...renderLossNotes(results)];
  if (notes.length) console.log(`\n${notes.join('\n')}`);
  const failures = [...renderFailures(results), ...renderFailures(holds)];
  const report: ChaosReport = {
    startedAt,
    redis: {
      mode: stack.info.redisMode,
      waitReplicas,
      ...(stack.info.redisAppendFsync && { appendFsync: stack.info.redisAppendFsync }),
    },
    results,
    holds,
  };
  if (options.json) writeFileSync(options.json, `${JSON.stringify(report, null, 2)}\n`);
  if (failures.length) {
    console.log(`\ninvariants broken:\n${failures.map((f) => `  ${f}`).join('\n')}`);
    process.exitCode = 1;
  } else {
    console.log(`\nevery invariant held in ${results.length + holds.length} runs${withDocumentedLoss(results)}`);
  }
}

runCommand(main);
