/** A critical section: from a grant's enteredAt to its leftAt (database clock), on one stock row. */
export interface TimelineBar {
  readonly lane: string;
  readonly start: number;
  readonly end: number;
  /** The stock row it deducted from: only sections on the same row can conflict. */
  readonly row: string;
  readonly label?: string;
  /** 'key': the life of a lock key in Redis, drawn apart and never counted as a holder. */
  readonly kind?: 'section' | 'key';
}

/** A point event: a lock event from a replica, or something the walkthrough did or saw. */
export interface TimelineTick {
  readonly lane: string;
  readonly at: number;
  readonly type: string;
  readonly detail?: string;
}

export interface TimelineInput {
  readonly title: string;
  /** Top to bottom. Bars and ticks on lanes not listed get a lane of their own. */
  readonly lanes: readonly string[];
  readonly bars: readonly TimelineBar[];
  readonly ticks: readonly TimelineTick[];
}

/** A stretch of time during which `count` (≥ 2) sections held the same row at once. */
export interface Overlap {
  readonly row: string;
  readonly start: number;
  readonly end: number;
  readonly count: number;
}

/**
 * Where sections on the same row overlap, by a sweep over their ends. Sections that only touch
 * (one leaves the instant the next enters) do not overlap: that is a correct hand-off.
 */
export function findOverlaps(bars: readonly TimelineBar[]): Overlap[] {
  const byRow = new Map<string, TimelineBar[]>();
  for (const bar of bars) {
    if (!(bar.end > bar.start) || bar.kind === 'key') continue;
    byRow.set(bar.row, [...(byRow.get(bar.row) ?? []), bar]);
  }
  const found: Overlap[] = [];
  for (const [row, rowBars] of byRow) {
    // Ends sort before starts at the same instant, so touching sections never count as two.
    const edges = rowBars
      .flatMap((b) => [
        { at: b.start, delta: 1 },
        { at: b.end, delta: -1 },
      ])
      .sort((a, b) => a.at - b.at || a.delta - b.delta);
    let open = 0;
    let current: { start: number; count: number } | undefined;
    for (const edge of edges) {
      open += edge.delta;
      if (open >= 2 && !current) current = { start: edge.at, count: open };
      else if (open >= 2 && current) current.count = Math.max(current.count, open);
      else if (open < 2 && current) {
        if (edge.at > current.start) found.push({ row, start: current.start, end: edge.at, count: current.count });
        current = undefined;
      }
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** The most sections that held one row at the same time (1 when none overlapped, 0 with no bars). */
export function maxConcurrent(bars: readonly TimelineBar[]): number {
  const overlaps = findOverlaps(bars);
  if (overlaps.length) return Math.max(...overlaps.map((o) => o.count));
  return bars.some((b) => b.end > b.start && b.kind !== 'key') ? 1 : 0;
}

export function isOverlapping(bar: TimelineBar, overlaps: readonly Overlap[]): boolean {
  return bar.kind !== 'key' && overlaps.some((o) => o.row === bar.row && bar.start < o.end && o.start < bar.end);
}

export interface LayoutOptions {
  readonly width: number;
  readonly laneHeight: number;
  readonly labelWidth: number;
  readonly top: number;
  readonly bottom: number;
  readonly right: number;
}

export const defaultLayout: LayoutOptions = {
  width: 900,
  laneHeight: 44,
  labelWidth: 110,
  top: 34,
  bottom: 44,
  right: 20,
};

export interface TimelineLayout {
  readonly width: number;
  readonly height: number;
  readonly t0: number;
  readonly spanMs: number;
  readonly lanes: Array<{ name: string; y: number; height: number }>;
  readonly bars: Array<{ x: number; y: number; width: number; height: number; overlapping: boolean; bar: TimelineBar }>;
  readonly overlaps: Array<{ x: number; width: number; overlap: Overlap }>;
  readonly ticks: Array<{ x: number; y: number; height: number; tick: TimelineTick }>;
  /** Axis labels in ms after t0. */
  readonly axis: Array<{ x: number; ms: number }>;
}

/** Per bar, the sub-row of its lane it is drawn on: the first row free when it starts. */
export function assignSubRows(bars: readonly TimelineBar[]): number[] {
  const rows = new Array<number>(bars.length).fill(0);
  const rowEnds = new Map<string, number[]>();
  const order = bars.map((_, i) => i).sort((a, b) => bars[a].start - bars[b].start);
  for (const i of order) {
    const ends = rowEnds.get(bars[i].lane) ?? [];
    let row = ends.findIndex((end) => end <= bars[i].start);
    if (row < 0) row = ends.length;
    ends[row] = bars[i].end;
    rowEnds.set(bars[i].lane, ends);
    rows[i] = row;
  }
  return rows;
}

/** Picks an axis step of 1, 2 or 5 × 10^n ms giving about `target` labels. */
export function axisStep(spanMs: number, target = 8): number {
  const raw = Math.max(spanMs, 1) / target;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * magnitude >= raw) return m * magnitude;
  return 10 * magnitude;
}

/** Pixel geometry for a timeline: time runs left to right, one lane per replica (or actor). */
export function layoutTimeline(input: TimelineInput, options: LayoutOptions = defaultLayout): TimelineLayout {
  const laneNames = [...input.lanes];
  for (const name of [...input.bars.map((b) => b.lane), ...input.ticks.map((t) => t.lane)]) {
    if (!laneNames.includes(name)) laneNames.push(name);
  }
  const times = [...input.bars.flatMap((b) => [b.start, b.end]), ...input.ticks.map((t) => t.at)];
  const first = times.length ? Math.min(...times) : 0;
  const last = times.length ? Math.max(...times) : 1;
  // A little room either side so ticks at the ends stay visible.
  const pad = Math.max((last - first) * 0.03, 5);
  const t0 = first - pad;
  const spanMs = last + pad - t0;
  const plotWidth = options.width - options.labelWidth - options.right;
  const xOf = (t: number) => options.labelWidth + ((t - t0) / spanMs) * plotWidth;
  // Sections of one lane that overlap each other (concurrent requests on one replica) get
  // sub-rows of their own, so no bar hides another.
  const rowOf = assignSubRows(input.bars);
  const barHeight = options.laneHeight * 0.5;
  const rowsIn = new Map<string, number>();
  input.bars.forEach((bar, i) => rowsIn.set(bar.lane, Math.max(rowsIn.get(bar.lane) ?? 1, rowOf[i] + 1)));
  let y = options.top;
  const lanes = laneNames.map((name) => {
    const height = options.laneHeight + ((rowsIn.get(name) ?? 1) - 1) * (barHeight + 4);
    const lane = { name, y, height };
    y += height;
    return lane;
  });
  const laneOf = new Map(lanes.map((l) => [l.name, l]));
  const overlaps = findOverlaps(input.bars);
  const step = axisStep(spanMs);
  const axis: Array<{ x: number; ms: number }> = [];
  for (let ms = 0; ms <= last - first + 1e-9; ms += step) axis.push({ x: xOf(first + ms), ms });
  return {
    width: options.width,
    height: y + options.bottom,
    t0: first,
    spanMs: last - first,
    lanes,
    bars: input.bars.map((bar, i) => ({
      x: xOf(bar.start),
      y: laneOf.get(bar.lane)!.y + (options.laneHeight - barHeight) / 2 + rowOf[i] * (barHeight + 4),
      width: Math.max(xOf(bar.end) - xOf(bar.start), 1),
      height: barHeight,
      overlapping: isOverlapping(bar, overlaps),
      bar,
    })),
    overlaps: overlaps.map((overlap) => ({
      x: xOf(overlap.start),
      width: Math.max(xOf(overlap.end) - xOf(overlap.start), 1),
      overlap,
    })),
    ticks: input.ticks.map((tick) => {
      const lane = laneOf.get(tick.lane)!;
      return { x: xOf(tick.at), y: lane.y + 4, height: lane.height - 8, tick };
    }),
    axis,
  };
}
