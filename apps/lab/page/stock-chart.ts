import type { LoadEvent } from '@app/contract';
import { byId } from './dom';
import { stockChartSvg, type StockReading, type StockSeries } from './stock-chart-svg';

type Progress = Extract<LoadEvent, { type: 'progress' }>;

/**
 * A load's stock over time: the stock of record, and Redis's counter for a strategy that keeps
 * one. Both come from the lab's server; the gap between them is the orders in flight.
 */
export class StockChart {
  private readings: StockReading[] = [];
  private initialStock = 0;
  private series: readonly StockSeries[] = ['record'];
  private frame = 0;

  constructor(
    private readonly box: HTMLElement,
    private readonly gap: HTMLElement,
  ) {
    window.addEventListener('resize', () => this.draw());
    this.draw();
  }

  reset(initialStock: number, redisCounter: boolean): void {
    this.readings = [];
    this.initialStock = initialStock;
    this.series = redisCounter ? ['record', 'redis'] : ['record'];
    byId('legend-redis').hidden = !redisCounter;
    this.draw();
  }

  add(event: Progress): void {
    this.readings.push({ at: event.at, record: event.stock, redis: event.redisStock });
    this.draw();
  }

  /** Draws now what has arrived. */
  flush(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    const width = Math.max(320, Math.floor(this.box.clientWidth || 900));
    this.box.innerHTML = stockChartSvg(this.readings, {
      initialStock: this.initialStock,
      series: this.series,
      width,
    });
    this.describeGap();
  }

  private draw(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => this.flush());
  }

  /** What the gap means, and how wide it is now (the latest reading with both figures). */
  private describeGap(): void {
    if (this.readings.length && !this.series.includes('redis')) {
      this.gap.textContent = 'One line: this strategy keeps no stock in Redis; the stock of record is the only stock.';
      delete this.gap.dataset.gap;
      return;
    }
    const last = this.readings.filter((r) => typeof r.redis === 'number').at(-1);
    const gap = last ? last.record - last.redis! : undefined;
    if (gap === undefined) delete this.gap.dataset.gap;
    else this.gap.dataset.gap = String(gap);
    this.gap.textContent =
      "The gap between the lines is the orders in flight: taken from Redis's counter, not yet written to PostgreSQL" +
      (gap === undefined ? '.' : gap === 0 ? ' (none now: the lines meet).' : ` (${gap} now).`);
  }
}
