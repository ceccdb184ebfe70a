import { parseOptions, selectSteps, UsageError } from './options';

describe('parseOptions', () => {
  it('defaults to every step, no files, narration only', () => {
    expect(parseOptions([])).toEqual({
      help: false,
      list: false,
      steps: [],
      json: undefined,
      markdown: undefined,
      stackDir: undefined,
    });
  });

  it('collects repeated and comma-separated --step values in order', () => {
    expect(parseOptions(['--step', 'nested', '--step=none,set-nx-px', '--step', 'failover']).steps).toEqual([
      'nested',
      'none',
      'set-nx-px',
      'failover',
    ]);
  });

  it('reads --json, --markdown and --stack-dir, with a space or =', () => {
    const options = parseOptions([
      '--json',
      'out/r.json',
      '--markdown=out/r.md',
      '--stack-dir',
      '.stack/walk-dev',
      '--list',
    ]);
    expect(options).toMatchObject({
      json: 'out/r.json',
      markdown: 'out/r.md',
      stackDir: '.stack/walk-dev',
      list: true,
    });
  });

  it('refuses an option without its value, or followed by another option', () => {
    expect(() => parseOptions(['--json'])).toThrow(UsageError);
    expect(() => parseOptions(['--step', '--list'])).toThrow('--step needs a value');
    expect(() => parseOptions(['--markdown='])).toThrow('--markdown needs a value');
  });

  it('refuses unknown options with a stable code', () => {
    try {
      parseOptions(['--steps', 'none']);
      throw new Error('no error');
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).code).toBe('WALKTHROUGH.USAGE');
      expect((error as Error).message).toContain('--steps');
    }
  });
});

describe('selectSteps', () => {
  const all = [{ name: 'none' }, { name: 'setnx-crash' }, { name: 'nested' }];

  it('keeps the walkthrough order when no names are given', () => {
    expect(selectSteps(all, []).map((s) => s.name)).toEqual(['none', 'setnx-crash', 'nested']);
  });

  it('runs the named steps in the order asked, once each', () => {
    expect(selectSteps(all, ['nested', 'none', 'nested']).map((s) => s.name)).toEqual(['nested', 'none']);
  });

  it('names the unknown steps and the known ones', () => {
    expect(() => selectSteps(all, ['none', 'redlok'])).toThrow(
      /unknown step\(s\): redlok \(have: none, setnx-crash, nested\)/,
    );
  });
});
