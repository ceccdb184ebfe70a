import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allSteps } from '.';
import { renderProse, stepProse, StepProseError } from './step-prose';

const FILE =
  '# Grab {stock}\n\nA coupon with {stock} left,\n  {users} users.\n\n**Expected:** more than {stock} grants\n';

describe('renderProse', () => {
  it('fills every placeholder and joins wrapped lines with a space', () => {
    expect(renderProse(FILE, { stock: 5, users: '20' }, 'x.md')).toEqual({
      title: 'Grab 5',
      explain: 'A coupon with 5 left, 20 users.',
      expected: 'more than 5 grants',
    });
  });

  it('reads Windows line endings alike', () => {
    expect(renderProse(FILE.replace(/\n/g, '\r\n'), { stock: 5, users: 20 }, 'x.md').explain).toBe(
      'A coupon with 5 left, 20 users.',
    );
  });

  it('leaves braces that are not placeholders alone', () => {
    const text = '# T\n\n`SETNX lock:{coupon:N}` and a hash {owner: count}\n\n**Expected:** E\n';
    expect(renderProse(text, {}, 'x.md').explain).toBe('`SETNX lock:{coupon:N}` and a hash {owner: count}');
  });

  it('refuses a placeholder without a value, naming it and the file', () => {
    expect(() => renderProse(FILE, { stock: 5 }, 'x.md')).toThrow(new StepProseError('x.md: no value for {users}'));
  });

  it('does not take a value from the prototype', () => {
    const text = '# T\n\n{constructor}\n\n**Expected:** E\n';
    expect(() => renderProse(text, {}, 'x.md')).toThrow('no value for {constructor}');
  });

  it('refuses a value no placeholder uses', () => {
    expect(() => renderProse(FILE, { stock: 5, users: 20, workMs: 300 }, 'x.md')).toThrow(
      new StepProseError('x.md: no placeholder for the value(s) workMs'),
    );
  });

  it.each([
    ['no title', 'A coupon.\n\n**Expected:** E\n'],
    ['no expected outcome', '# T\n\nA coupon.\n\nMore than one.\n'],
    ['two paragraphs of explanation', '# T\n\nOne.\n\nTwo.\n\n**Expected:** E\n'],
    ['no explanation', '# T\n\n**Expected:** E\n'],
    ['an empty file', ''],
  ])('refuses a file with %s', (_, text) => {
    expect(() => renderProse(text, {}, 'x.md')).toThrow(/x\.md: want "# title", one paragraph/);
  });
});

describe('stepProse', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'step-prose-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads <name>.md and names the prose after the step', () => {
    writeFileSync(join(dir, 'grab.md'), FILE);
    expect(stepProse('grab', { stock: 3, users: 4 }, dir)).toEqual({
      name: 'grab',
      title: 'Grab 3',
      explain: 'A coupon with 3 left, 4 users.',
      expected: 'more than 3 grants',
    });
  });

  it('fails loudly when the file is missing', () => {
    expect(() => stepProse('absent', {}, dir)).toThrow(StepProseError);
    expect(() => stepProse('absent', {}, dir)).toThrow(
      `step absent has no prose: cannot read ${join(dir, 'absent.md')}`,
    );
  });
});

describe('the prose files', () => {
  it('belong one to one to the steps', () => {
    const files = readdirSync(join(__dirname, 'prose'));
    expect(files.sort()).toEqual(allSteps.map((s) => `${s.name}.md`).sort());
  });
});
