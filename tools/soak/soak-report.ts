import { escapeXml } from '../report/format';
import { lineChart, type LineSeries } from '../report/line-chart';
import type { ReplicaSample } from './replica-samples';
import { lagP99, memoryGrowth } from './soak-figures';
import type { SoakReport } from './soak-run';

const COLORS = ['#1e88e5', '#2e7d32', '#ef6c00', '#6a1b9a', '#00838f', '#ad1457'];
/** A restarted replica compiles its code for its first seconds: not a stall the soak judges. */
const STARTUP_MS = 10_000;

export interface SoakVerdict {
  readonly lines: string[];
  readonly ok: boolean;
}

/**
 * The soak's figures and its one pass/fail: RSS growth and lag p99 are stated as measured; only
 * an invariant break fails the soak.
 */
export function soakVerdict(report: SoakReport): SoakVerdict {
  const growth = memoryGrowth(report.samples, report.options.warmupMs);
  const worst = growth.reduce((a, b) => (b.rssGrowth > a.rssGrowth ? b : a), growth[0]);
  const lag = lagP99(report.samples, STARTUP_MS);
  const breaks = report.phases.flatMap((p) => p.breaks.map((b) => `${p.strategy}: ${b}`));
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return {
    ok: breaks.length === 0,
    lines: [
      'RSS growth after the warm-up: ' +
        (worst
          ? `worst ${worst.replica} ${worst.firstRssMb.toFixed(0)} → ${worst.lastRssMb.toFixed(0)} MiB (${pct(worst.rssGrowth)}; heap ${worst.firstHeapMb.toFixed(0)} → ${worst.lastHeapMb.toFixed(0)} MiB), ${growth.length} processes measured`
          : 'no process ran through the whole measured window'),
      `event-loop lag p99: ${lag.toFixed(1)} ms`,
      breaks.length
        ? `FAILED: invariant breaks: ${breaks.join('; ')}`
        : `passed: zero invariant breaks in ${report.phases.length} phases`,
    ],
  };
}

function series(samples: readonly ReplicaSample[], value: (s: ReplicaSample) => number): LineSeries[] {
  const replicas = [...new Set(samples.map((s) => s.replica))].sort();
  return replicas.map((replica, i) => ({
    name: replica,
    color: COLORS[i % COLORS.length],
    points: samples.filter((s) => s.replica === replica).map((s) => [s.atMs / 1000, value(s)] as const),
  }));
}

/** One self-contained page: the verdict, the phases, RSS and lag over time with the faults marked. */
export function renderSoakHtml(report: SoakReport): string {
  const markers = report.faults.map((f) => ({ x: f.atMs / 1000, label: f.name }));
  const verdict = soakVerdict(report);
  const rows = report.phases
    .map(
      (p) =>
        `<tr><td>${escapeXml(p.strategy)}</td><td>${p.measuredPerSec.toFixed(0)}</td><td>${p.loadPerSec.toFixed(0)}</td><td>${p.requests}</td><td>${escapeXml(JSON.stringify(p.statuses))}</td><td>${p.breaks.length ? escapeXml(p.breaks.join('; ')) : 'none'}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>oversell-lab soak ${escapeXml(report.startedAt)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;color:#222}td,th{border-bottom:1px solid #ddd;padding:3px 8px;text-align:left}table{border-collapse:collapse;font-size:13px}</style></head>
<body><h1>Soak, ${escapeXml(report.startedAt)}</h1>
<p>${report.options.minutes} min; a fault every ${report.options.faultEveryMs / 1000} s (replica kill, Redis restart, PostgreSQL restart in turn); each strategy in turn at half the rate the bench measured for it; samples every ${report.options.sampleEveryMs / 1000} s; warm-up ${report.options.warmupMs / 1000} s.</p>
<ul>${verdict.lines.map((l) => `<li>${escapeXml(l)}</li>`).join('')}</ul>
<table><thead><tr><th>strategy</th><th>measured/s</th><th>load/s</th><th>grabs</th><th>answers</th><th>invariant breaks</th></tr></thead><tbody>${rows}</tbody></table>
<figure>${lineChart(
    'Resident memory per replica',
    'MiB',
    series(report.samples, (s) => s.rssMb),
    markers,
  )}</figure>
<figure>${lineChart(
    'V8 heap in use per replica',
    'MiB',
    series(report.samples, (s) => s.heapMb),
    markers,
  )}</figure>
<figure>${lineChart(
    'Event-loop lag p99 per replica',
    'ms',
    series(report.samples, (s) => s.lagP99Ms),
    markers,
  )}</figure>
</body></html>
`;
}
