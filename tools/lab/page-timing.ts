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

export const LAB_PAGE_TARGETS = { bytes: 300 * 1024, readyMs: 1000 } as const;

/** The README's lines for a measured page: its weight and load time against the targets. */
export function renderLabSection(t: LabPageTiming): string {
  const mark = (ok: boolean) => (ok ? 'met' : '**not met**');
  return [
    `\`npm run lab:screenshot\` on ${t.measuredAt.slice(0, 10)} (${t.machine.cpus} × ${t.machine.cpuModel}, headless Chromium, the local stack):`,
    '',
    `- ${mark(t.bytes < LAB_PAGE_TARGETS.bytes)}: the whole page under 300 KB: ${(t.bytes / 1024).toFixed(1)} KiB (the document and every file it loads)`,
    `- ${mark(t.readyMs < LAB_PAGE_TARGETS.readyMs)}: loads in under 1 s: every control filled after ${t.readyMs} ms (load event after ${t.loadMs} ms)`,
    '',
  ].join('\n');
}
