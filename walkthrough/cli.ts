import { ensureStack } from '../tools/stack/stack';
import { openContext } from './context';
import { parseOptions, selectSteps, usage, UsageError } from './options';
import { writeJson, writeMarkdown } from './output';
import { narrateResult, narrateStep, narrateSummary } from './report/terminal';
import { exitCode, runSteps } from './runner';
import { allSteps } from './steps';

async function main(argv: string[]): Promise<number> {
  const options = parseOptions(argv);
  if (options.help) {
    console.log(usage);
    return 0;
  }
  const steps = selectSteps(allSteps, options.steps);
  if (options.list) {
    for (const step of allSteps) console.log(`${step.name.padEnd(16)} ${step.title}`);
    return 0;
  }
  const stack = await ensureStack(options.stackDir ? { dir: options.stackDir } : {});
  console.log(
    stack.started
      ? `Started a stack in ${stack.info.dir} for this run.`
      : `Using the stack running in ${stack.info.dir}.`,
  );
  const { ctx, close } = await openContext(stack.info, { say: (line) => console.log(`   · ${line}`) });
  const startedAt = new Date();
  try {
    const results = await runSteps(steps, ctx, {
      before: (step, i, total) => console.log(narrateStep(step, i, total)),
      after: (result) => console.log(narrateResult(result)),
    });
    const finishedAt = new Date();
    console.log(narrateSummary(results));
    const runLine = `Run on ${startedAt.toISOString().replace('T', ' ').slice(0, 19)} UTC against a local three-replica stack, in ${((finishedAt.getTime() - startedAt.getTime()) / 1000).toFixed(1)} s.`;
    if (options.markdown) console.log(`Markdown: ${writeMarkdown(options.markdown, results, runLine).join(', ')}`);
    if (options.json) {
      writeJson(options.json, results, { startedAt, finishedAt, nginxUrl: stack.info.nginxUrl }, options.markdown);
      console.log(`JSON: ${options.json}`);
    }
    return exitCode(results);
  } finally {
    close();
    await stack.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error instanceof UsageError ? `${error.message}\n\n${usage}` : error);
    process.exitCode = 2;
  },
);
