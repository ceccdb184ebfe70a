import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileStamp } from '../report/format';
import { ensureStack } from '../stack/stack';
import { renderSoakHtml, soakVerdict } from './soak-report';
import { runSoak } from './soak-run';
import { runCommand } from '../stack/run-command';

// npm run soak -- [--minutes 10] [--out bench/results]: steady load with a fault every minute;
// memory, lag and invariants over time.
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { minutes: { type: 'string', default: '10' }, out: { type: 'string', default: 'bench/results' } },
  });
  const minutes = Number(values.minutes);
  if (!(minutes >= 1 && minutes <= 600)) throw new Error(`--minutes must be 1…600, got ${values.minutes}`);
  const stack = await ensureStack();
  try {
    const report = await runSoak(stack.info, {
      minutes,
      warmupMs: 60_000,
      sampleEveryMs: 2000,
      faultEveryMs: 60_000,
      downMs: 3000,
      rateRound: { stock: 500, requests: 1000, warmupRequests: 100, connections: 50 },
    });
    const verdict = soakVerdict(report);
    console.log(verdict.lines.join('\n'));
    mkdirSync(values.out, { recursive: true });
    const base = join(values.out, `soak-${fileStamp(report.startedAt)}`);
    writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(`${base}.html`, renderSoakHtml(report));
    console.log(`report: ${base}.html\n        ${base}.json`);
    if (!verdict.ok) process.exitCode = 1;
  } finally {
    await stack.stop();
  }
}

runCommand(main);
