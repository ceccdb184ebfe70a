import type { MachineInfo } from '../../bench/types';

/** What `npm run lab:screenshot` measured of the page, saved as JSON beside the screenshot's run. */
export interface LabPageTiming {
  readonly measuredAt: string;
  readonly machine: MachineInfo;
  readonly url: string;
  /** The document and every file it loaded, as the browser decoded them (the API's answers left out). */
  readonly bytes: number;
  /** Navigation start to the load event, by the browser's clock. */
  readonly loadMs: number;
  /** Navigation start to the page's `lab-ready` mark: its config and strategies fetched, every control built. */
  readonly readyMs: number;
}

/** The docs' lines for a measured page: its weight and how soon it is ready to use. */
export function renderLabSection(t: LabPageTiming): string {
  return [
    `\`npm run lab:screenshot\` on ${t.measuredAt.slice(0, 10)} (${t.machine.cpus} × ${t.machine.cpuModel}, headless Chromium, the local stack):`,
    '',
    `- the whole page weighs ${(t.bytes / 1024).toFixed(1)} KiB (the document and every file it loads)`,
    `- every control is filled after ${t.readyMs} ms (load event after ${t.loadMs} ms)`,
    '',
  ].join('\n');
}
