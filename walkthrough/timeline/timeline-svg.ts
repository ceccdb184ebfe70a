import { layoutTimeline, type TimelineInput, type LayoutOptions, defaultLayout } from './timeline-model';

/** Colour of each tick kind: lock events from the replicas, then what the walkthrough did or saw. */
export const tickColours: Record<string, string> = {
  acquire: '#2b7a2b',
  release: '#555555',
  renew: '#1f6fd1',
  timeout: '#b36b00',
  lost: '#c0392b',
  'foreign-delete': '#8e24aa',
  'release-refused': '#00897b',
  'release-failed': '#c0392b',
  'replicas-missing': '#ad1457',
  'still-held': '#1f6fd1',
  'fence-rejected': '#2e7d32',
  crash: '#000000',
  expired: '#b36b00',
  'deleted-by-hand': '#6d4c41',
  promoted: '#8e24aa',
};

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const n = (value: number) => (Math.round(value * 10) / 10).toString();

/**
 * A self-contained SVG of the timeline (no scripts, no external fonts). Lanes and sections carry
 * `data-testid`, `data-replica` and `data-overlap`, so a page that shows it can be read by scripts;
 * `testId` names the whole drawing the same way.
 */
/** Lanes that are not replicas: the servers a step or a fault marks on the timeline. */
const SERVICE_LANES: ReadonlySet<string> = new Set(['redis', 'postgres']);

export function renderTimelineSvg(
  input: TimelineInput,
  options: LayoutOptions = defaultLayout,
  { testId }: { testId?: string } = {},
): string {
  const layout = layoutTimeline(input, options);
  const plotRight = layout.width - options.right;
  const plotBottom = layout.height - options.bottom;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg"${testId ? ` data-testid="${escape(testId)}"` : ''} width="${layout.width}" height="${layout.height}" viewBox="0 0 ${layout.width} ${layout.height}" font-family="sans-serif" font-size="12">`,
  );
  out.push(`<title>${escape(input.title)}</title>`);
  out.push(`<rect width="100%" height="100%" fill="#ffffff"/>`);
  out.push(`<text x="8" y="20" font-size="14" font-weight="bold">${escape(input.title)}</text>`);
  layout.lanes.forEach((lane, i) => {
    // One `lane` hook per replica (the page's contract); Redis and PostgreSQL, drawn for their keys
    // and faults, are service lanes.
    const hook = SERVICE_LANES.has(lane.name)
      ? `data-testid="service-lane" data-service="${escape(lane.name)}"`
      : `data-testid="lane" data-replica="${escape(lane.name)}"`;
    out.push(
      `<g ${hook}><rect x="${options.labelWidth}" y="${lane.y}" width="${plotRight - options.labelWidth}" height="${lane.height}" fill="${i % 2 ? '#f7f7f7' : '#eeeeee'}"/>`,
    );
    out.push(`<text x="8" y="${n(lane.y + lane.height / 2 + 4)}">${escape(lane.name)}</text></g>`);
  });
  for (const overlap of layout.overlaps) {
    out.push(
      `<rect class="overlap" x="${n(overlap.x)}" y="${options.top}" width="${n(overlap.width)}" height="${plotBottom - options.top}" fill="#e53935" fill-opacity="0.18" stroke="#e53935" stroke-dasharray="4 3"/>`,
    );
    out.push(
      `<text x="${n(overlap.x + 2)}" y="${options.top - 4}" fill="#c62828" font-size="11">${overlap.overlap.count} holders</text>`,
    );
  }
  for (const bar of layout.bars) {
    const key = bar.bar.kind === 'key';
    const fill = key ? '#9e9e9e' : bar.overlapping ? '#ef6c00' : '#43a047';
    const tip = `${bar.bar.label ?? bar.bar.lane}: ${Math.round(bar.bar.end - bar.bar.start)} ms ${key ? 'in Redis' : `on ${bar.bar.row}`}${bar.overlapping ? ', overlapping another holder' : ''}`;
    // Not by colour alone: an overlapping section also gets a dashed dark outline.
    const hooks = key
      ? ''
      : ` data-testid="section" data-replica="${escape(bar.bar.lane)}" data-overlap="${bar.overlapping}"${bar.overlapping ? ' stroke="#7f2704" stroke-width="1.5" stroke-dasharray="3 2"' : ''}`;
    out.push(
      `<rect class="${key ? 'key' : 'section'}${bar.overlapping ? ' overlapping' : ''}"${hooks} x="${n(bar.x)}" y="${n(bar.y)}" width="${n(bar.width)}" height="${n(bar.height)}" rx="3" fill="${fill}" fill-opacity="0.85"><title>${escape(tip)}</title></rect>`,
    );
    if (bar.bar.label && bar.width > 40) {
      out.push(
        `<text x="${n(bar.x + 4)}" y="${n(bar.y + bar.height / 2 + 4)}" fill="#ffffff" font-size="11">${escape(bar.bar.label)}</text>`,
      );
    }
  }
  for (const tick of layout.ticks) {
    const colour = tickColours[tick.tick.type] ?? '#333333';
    const tip = tick.tick.detail ? `${tick.tick.type}: ${tick.tick.detail}` : tick.tick.type;
    out.push(
      `<line class="tick ${escape(tick.tick.type)}" x1="${n(tick.x)}" x2="${n(tick.x)}" y1="${n(tick.y)}" y2="${n(tick.y + tick.height)}" stroke="${colour}" stroke-width="2"><title>${escape(tip)}</title></line>`,
    );
  }
  out.push(
    `<line x1="${options.labelWidth}" x2="${plotRight}" y1="${plotBottom}" y2="${plotBottom}" stroke="#999999"/>`,
  );
  for (const mark of layout.axis) {
    out.push(`<line x1="${n(mark.x)}" x2="${n(mark.x)}" y1="${plotBottom}" y2="${plotBottom + 4}" stroke="#999999"/>`);
    out.push(
      `<text x="${n(mark.x)}" y="${plotBottom + 16}" text-anchor="middle" fill="#555555" font-size="10">${mark.ms} ms</text>`,
    );
  }
  // Legend: swatches for the bar kinds present, then one per tick kind, wrapped to the width.
  const items: Array<{ width: number; draw: (x: number, y: number) => string }> = [];
  const swatch = (fill: string, text: string) =>
    items.push({
      width: 30 + text.length * 7,
      draw: (x, y) =>
        `<rect x="${x}" y="${y - 9}" width="14" height="10" fill="${fill}"/><text x="${x + 18}" y="${y}">${escape(text)}</text>`,
    });
  if (input.bars.some((b) => b.kind !== 'key')) swatch('#43a047', 'critical section');
  if (input.bars.some((b) => b.kind === 'key')) swatch('#9e9e9e', 'lock key in Redis');
  if (layout.overlaps.length) swatch('#ef6c00', 'overlapping');
  for (const type of new Set(input.ticks.map((t) => t.type))) {
    items.push({
      width: 22 + type.length * 7,
      draw: (x, y) =>
        `<line x1="${x + 5}" x2="${x + 5}" y1="${y - 10}" y2="${y + 1}" stroke="${tickColours[type] ?? '#333333'}" stroke-width="2"/><text x="${x + 12}" y="${y}">${escape(type)}</text>`,
    });
  }
  let x = options.labelWidth;
  let legendY = plotBottom + 34;
  for (const item of items) {
    if (x > options.labelWidth && x + item.width > plotRight) {
      x = options.labelWidth;
      legendY += 16;
    }
    out.push(item.draw(x, legendY));
    x += item.width;
  }
  const height = Math.max(layout.height, legendY + 10);
  out[0] = out[0].replace(
    `height="${layout.height}" viewBox="0 0 ${layout.width} ${layout.height}"`,
    `height="${height}" viewBox="0 0 ${layout.width} ${height}"`,
  );
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
