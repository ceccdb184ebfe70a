import { UsageError } from './walkthrough.errors';

/** The walkthrough's command line, parsed without side effects (so it can be tested alone). */
export interface WalkthroughOptions {
  readonly help: boolean;
  readonly list: boolean;
  /** Step names in the order given; empty = every step. */
  readonly steps: string[];
  readonly json?: string;
  readonly markdown?: string;
  /** The stack's directory (default: STACK_DIR or .stack). */
  readonly stackDir?: string;
}

export { UsageError } from './walkthrough.errors';

export const usage = `usage: npm run walkthrough -- [options]

  --list               list the steps and exit
  --step NAME          run only this step (repeatable, or NAME,NAME)
  --json FILE          write the results as JSON (step, expected, observed figures, verdict)
  --markdown FILE      write a Markdown report; timeline SVGs are written beside it
  --stack-dir DIR      the stack to use (default: STACK_DIR or .stack); started if not running
  --help               this text`;

export function parseOptions(argv: readonly string[]): WalkthroughOptions {
  let help = false;
  let list = false;
  const steps: string[] = [];
  let json: string | undefined;
  let markdown: string | undefined;
  let stackDir: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = () => {
      const next = inline ?? argv[++i];
      if (next === undefined || next === '' || (inline === undefined && next.startsWith('--')))
        throw new UsageError(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case '--help':
      case '-h':
        help = true;
        break;
      case '--list':
        list = true;
        break;
      case '--step':
        steps.push(
          ...value()
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        );
        break;
      case '--json':
        json = value();
        break;
      case '--markdown':
        markdown = value();
        break;
      case '--stack-dir':
        stackDir = value();
        break;
      default:
        throw new UsageError(`unknown option ${arg}`);
    }
  }
  return { help, list, steps, json, markdown, stackDir };
}

/** The steps to run, in the walkthrough's order (or the order asked); unknown names are an error. */
export function selectSteps<T extends { name: string }>(all: readonly T[], names: readonly string[]): T[] {
  if (!names.length) return [...all];
  const unknown = names.filter((n) => !all.some((s) => s.name === n));
  if (unknown.length)
    throw new UsageError(`unknown step(s): ${unknown.join(', ')} (have: ${all.map((s) => s.name).join(', ')})`);
  return [...new Set(names)].map((n) => all.find((s) => s.name === n)!);
}
