import type { Grant } from '@app/contract';
import { grantBar } from '../../../walkthrough/scenario';
import {
  defaultLayout,
  findOverlaps,
  maxConcurrent,
  type LayoutOptions,
} from '../../../walkthrough/timeline/timeline-model';
import type { TimelineBar, TimelineInput, TimelineTick } from '../../../walkthrough/timeline/timeline-model';
import { renderTimelineSvg } from '../../../walkthrough/timeline/timeline-svg';

/** The walkthrough's own layout, fitted to the width the page has (a phone gets a narrower label column). */
export function fitLayout(box: HTMLElement): LayoutOptions {
  const width = Math.max(320, Math.floor(box.clientWidth || defaultLayout.width));
  return { ...defaultLayout, width, labelWidth: width < 600 ? 64 : defaultLayout.labelWidth };
}

/** Draws a timeline into `box` with the walkthrough's SVG renderer (the same drawing as its reports). */
export function drawTimeline(box: HTMLElement, input: TimelineInput, testId?: string): void {
  box.innerHTML = renderTimelineSvg(input, fitLayout(box), { testId });
}

/** The load's lanes: one per replica, one bar per grant row, a tick per fault; redrawn as rows arrive. */
export class LoadLanes {
  private title = 'No load yet';
  private bars: TimelineBar[] = [];
  private ticks: TimelineTick[] = [];
  private frame = 0;

  constructor(
    private readonly box: HTMLElement,
    private readonly summary: HTMLElement,
    private lanes: readonly string[],
  ) {
    window.addEventListener('resize', () => this.draw());
    this.draw();
  }

  reset(title: string, lanes: readonly string[]): void {
    this.title = title;
    this.lanes = lanes;
    this.bars = [];
    this.ticks = [];
    this.draw();
  }

  addGrants(grants: readonly Grant[]): void {
    if (!grants.length) return;
    this.bars.push(...grants.map((g) => grantBar(g)));
    this.draw();
  }

  addTick(tick: TimelineTick): void {
    this.ticks.push(tick);
    this.draw();
  }

  /** Draws now what has arrived (the run ended: the page must show every row before it says "done"). */
  flush(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    drawTimeline(this.box, { title: this.title, lanes: this.lanes, bars: this.bars, ticks: this.ticks }, 'lanes');
    this.summarise();
  }

  /** At most one drawing per frame, however fast the rows come. */
  private draw(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => this.flush());
  }

  private summarise(): void {
    const sections = this.bars.filter((b) => b.kind !== 'key');
    const overlaps = findOverlaps(sections);
    this.summary.textContent = !sections.length
      ? ''
      : overlaps.length
        ? `⚠ Overlaps: ${overlaps.length} stretch${overlaps.length === 1 ? '' : 'es'} where sections held the same row at once, up to ${maxConcurrent(sections)} holders.`
        : `✓ No overlap: ${sections.length} section${sections.length === 1 ? '' : 's'}, one holder at a time.`;
    this.summary.dataset.kind = overlaps.length ? 'warn' : 'info';
  }
}
