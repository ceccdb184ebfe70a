import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Step } from '../step';
import { WalkthroughError } from '../walkthrough.errors';

// A step's prose is content, not code: it lives in prose/<name>.md, so the story can be edited without
// touching TypeScript. The built lab server reads the copies nest-cli.json puts beside its build of this
// file. (Their own folder because Nest's asset copy drops as many leading folders as apps/lab/src has.)
// Every `{word}` is a placeholder, checked when the step's module loads: a stray one stops the CLI and
// the lab server at start-up, which is the point (no step shows half-filled prose).
const PROSE_DIR = join(__dirname, 'prose');

/** A step's prose file is missing or malformed, or does not fit the values the step gives it. */
export class StepProseError extends WalkthroughError {
  override readonly name = 'StepProseError';
  readonly code = 'WALKTHROUGH.STEP_PROSE';
}

/** The parts of a step that are prose, named after the file they come from. */
export type StepProse = Pick<Step, 'name' | 'title' | 'explain' | 'expected'>;

/** The step's figures, as its prose names them: `{stock}` is `values.stock`. */
export type ProseValues = Readonly<Record<string, string | number>>;

const PLACEHOLDER = /\{([A-Za-z]\w*)\}/g;
const TITLE = '# ';
const EXPECTED = '**Expected:** ';

/**
 * A step's name and prose, from `<dir>/<name>.md` with every placeholder filled in. Throws when the
 * file is missing or malformed, a placeholder has no value, or a value has no placeholder.
 */
export function stepProse(name: string, values: ProseValues = {}, dir = PROSE_DIR): StepProse {
  const path = join(dir, `${name}.md`);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new StepProseError(`step ${name} has no prose: cannot read ${path}`, { cause: error });
  }
  return { name, ...renderProse(text, values, path) };
}

/**
 * A prose file is three blocks split by blank lines: `# Title`, the explanation (one paragraph) and
 * `**Expected:** …`. A block may wrap over several lines; they are joined with spaces, as Markdown does.
 */
export function renderProse(text: string, values: ProseValues, source: string): Omit<StepProse, 'name'> {
  const blocks = text
    .split(/\r?\n[ \t]*\r?\n/)
    .map((block) => block.trim().replace(/\s*\n\s*/g, ' '))
    .filter(Boolean);
  const [title, explain, expected] = blocks;
  if (blocks.length !== 3 || !title.startsWith(TITLE) || !expected.startsWith(EXPECTED))
    throw new StepProseError(
      `${source}: want "${TITLE}title", one paragraph of explanation and "${EXPECTED}…", split by blank lines`,
    );
  const prose = { title: title.slice(TITLE.length), explain, expected: expected.slice(EXPECTED.length) };
  const named = new Set(Object.values(prose).flatMap((part) => [...part.matchAll(PLACEHOLDER)].map((m) => m[1])));
  const missing = [...named].filter((p) => !Object.hasOwn(values, p));
  if (missing.length) throw new StepProseError(`${source}: no value for ${missing.map((p) => `{${p}}`).join(', ')}`);
  const unused = Object.keys(values).filter((v) => !named.has(v));
  if (unused.length) throw new StepProseError(`${source}: no placeholder for the value(s) ${unused.join(', ')}`);
  const fill = (part: string) => part.replace(PLACEHOLDER, (_, p: string) => String(values[p]));
  return { title: fill(prose.title), explain: fill(prose.explain), expected: fill(prose.expected) };
}
