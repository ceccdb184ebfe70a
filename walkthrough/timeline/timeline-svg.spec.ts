import { renderTimelineSvg } from './timeline-svg';

const input = {
  title: 'A & B <overlap>',
  lanes: ['api-1', 'api-2'],
  bars: [
    { lane: 'api-1', start: 0, end: 900, row: 'segment 0', label: 'user 1' },
    { lane: 'api-2', start: 350, end: 1500, row: 'segment 0', label: 'user 2' },
  ],
  ticks: [
    { lane: 'api-1', at: 0, type: 'acquire' },
    { lane: 'api-1', at: 905, type: 'foreign-delete', detail: 'deleted "B"' },
  ],
};

describe('renderTimelineSvg', () => {
  it('draws one bar per section, marked overlapping, and one band per overlap', () => {
    const svg = renderTimelineSvg(input);
    expect(svg.match(/class="section overlapping"/g)).toHaveLength(2);
    expect(svg.match(/class="overlap"/g)).toHaveLength(1);
    expect(svg).toContain('2 holders');
  });

  it('draws no overlap band when sections hand off cleanly', () => {
    const svg = renderTimelineSvg({ ...input, bars: [input.bars[0], { ...input.bars[1], start: 900 }] });
    expect(svg).not.toContain('class="overlap"');
    expect(svg).not.toContain('overlapping');
  });

  it('draws each lock event as a tick with its kind, and escapes text', () => {
    const svg = renderTimelineSvg(input);
    expect(svg).toContain('class="tick acquire"');
    expect(svg).toContain('class="tick foreign-delete"');
    expect(svg).toContain('foreign-delete: deleted &quot;B&quot;');
    expect(svg).toContain('<title>A &amp; B &lt;overlap&gt;</title>');
    expect(svg).not.toContain('<overlap>');
  });

  it('marks lanes and sections for scripts: replica, overlap, and the drawing itself when asked', () => {
    const svg = renderTimelineSvg(
      { ...input, bars: [...input.bars, { lane: 'redis', start: 0, end: 100, row: 'key', kind: 'key' as const }] },
      undefined,
      { testId: 'lanes' },
    );
    expect(svg).toContain('<svg xmlns="http://www.w3.org/2000/svg" data-testid="lanes"');
    expect(svg.match(/data-testid="lane" data-replica="[^"]+"/g)).toEqual([
      'data-testid="lane" data-replica="api-1"',
      'data-testid="lane" data-replica="api-2"',
    ]);
    // Redis's lane carries keys and faults, not a replica: a hook of its own, so `lane` counts replicas.
    expect(svg).toContain('data-testid="service-lane" data-service="redis"');
    expect(svg.match(/data-testid="section" data-replica="[^"]+" data-overlap="[a-z]+"/g)).toEqual([
      'data-testid="section" data-replica="api-1" data-overlap="true"',
      'data-testid="section" data-replica="api-2" data-overlap="true"',
    ]);
    const apart = renderTimelineSvg({ ...input, bars: [input.bars[0], { ...input.bars[1], start: 900 }] });
    expect(apart).not.toContain('data-testid="lanes"');
    expect(apart.match(/data-overlap="false"/g)).toHaveLength(2);
  });

  it('is a well-formed standalone document', () => {
    const svg = renderTimelineSvg(input);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg).not.toMatch(/NaN|undefined/);
  });
});
