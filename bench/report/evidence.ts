import type { Lesson } from '../types';

/** The titles of the HTML report's charts: a lesson names the chart that shows it in the words printed above it. */
export const titles = {
  throughput: (workMs: number) => `Throughput at workMs ${workMs}, and the ceiling that bounds each`,
  correctness: (workMs: number) => `Oversold and lost updates at workMs ${workMs}`,
  commits: (workMs: number) => `PostgreSQL commits per grant at workMs ${workMs}`,
  slowDb: "Each buyer's wait while PostgreSQL stalls",
  sellOut: 'Sell-out time',
  // A column of the tables, not a chart.
  soldOutColumn: 'sold-out/s',
} as const;

/** A lesson as the run states it: held or not (then the two numbers), and where the report shows it. */
export const lesson = (id: string, text: string, held: boolean, notHeld: string, shownBy: string): Lesson =>
  held ? { id, text, held, shownBy } : { id, text, held, notHeld, shownBy };
