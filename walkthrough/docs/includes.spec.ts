import { DocMarkerError, fillIncludes, fillSection, includedPaths, renderInclude, sectionBody } from './includes';

const doc = [
  '# Title',
  'Intro.',
  '<!-- include: libs/a.lua -->',
  'stale text',
  '<!-- /include -->',
  'Between.',
  '<!-- include: libs/b.ts -->',
  '<!-- /include -->',
  '<!-- section: run -->',
  'old run',
  '<!-- /section: run -->',
  'End.',
].join('\n');

describe('doc includes', () => {
  const files: Record<string, string> = {
    'libs/a.lua': '-- KEYS[1] lock\nreturn 1\n\n',
    'libs/b.ts': 'const s = `x`;',
  };

  it('lists the included files in order', () => {
    expect(includedPaths(doc)).toEqual(['libs/a.lua', 'libs/b.ts']);
  });

  it('replaces each block with the file as it is now, keeping the prose around it', () => {
    const filled = fillIncludes(doc, (p) => files[p]);
    expect(filled).toContain(
      '<!-- include: libs/a.lua -->\n`libs/a.lua`\n\n```lua\n-- KEYS[1] lock\nreturn 1\n```\n<!-- /include -->',
    );
    expect(filled).not.toContain('stale text');
    expect(filled).toContain('Intro.\n');
    expect(filled).toContain('\nBetween.\n');
    expect(filled.endsWith('End.')).toBe(true);
  });

  it('is stable: filling twice gives the same document', () => {
    const once = fillIncludes(doc, (p) => files[p]);
    expect(fillIncludes(once, (p) => files[p])).toBe(once);
  });

  it('fences with more backticks than the file holds', () => {
    expect(renderInclude('x.ts', 'a ``` b')).toContain('````ts\na ``` b\n````');
  });

  it("surfaces a missing file as the reader's error", () => {
    expect(() =>
      fillIncludes(doc, () => {
        throw new Error('ENOENT libs/a.lua');
      }),
    ).toThrow('ENOENT');
  });
});

describe('doc sections', () => {
  it('replaces only the section body', () => {
    const filled = fillSection(doc, 'run', '## Results\nall good');
    expect(sectionBody(filled, 'run')).toBe('## Results\nall good');
    expect(filled).not.toContain('old run');
    expect(filled).toContain('<!-- include: libs/a.lua -->');
  });

  it('refuses a document without the markers', () => {
    expect(() => fillSection('# nothing', 'run', 'x')).toThrow(DocMarkerError);
    expect(sectionBody('# nothing', 'run')).toBeUndefined();
  });
});
