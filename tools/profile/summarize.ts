// Self time by function and by package of each profile directory (profile-replica.ts's), within
// its measured window; written as one small JSON.
// usage: tsx tools/profile/summarize.ts OUT.json LABEL=DIR [LABEL=DIR …]
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
/** What profile-replica.ts wrote beside the profile. */
interface LoadWindow {
  scenario: string;
  requests: number;
  fromUs: number;
  toUs: number;
  cpuUsPerAnswer: number;
  perSec: number;
  codes: Record<string, { count: number }>;
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const PACKAGE = /node_modules\/((?:@[^/]+\/)?[^/]+)/;

function where(url: string, fn: string): string {
  const pkg = PACKAGE.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  if (url.includes('/dist/')) return 'app';
  return url || (fn.startsWith('(') ? fn : '(native)');
}

function top(totals: Map<string, number>, busy: number, requests: number, count: number) {
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, us]) => ({
      name,
      share: Math.round((us / busy) * 1000) / 10,
      usPerAnswer: Math.round(us / requests),
    }));
}

function summarize(label: string, dir: string) {
  const load = JSON.parse(readFileSync(join(dir, 'load.json'), 'utf8')) as LoadWindow;
  const file = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))[0];
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let at = profile.startTime;
  let busy = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i];
    const { functionName: fn, url, lineNumber } = nodes.get(id)!.callFrame;
    if (at < load.fromUs || at > load.toUs || fn === '(idle)') return;
    const dt = profile.timeDeltas[i];
    busy += dt;
    const file = url.replace(/.*node_modules\//, '').replace(/.*\/dist\/apps\/api\//, '');
    const name = `${fn || '(anonymous)'}${url ? ` ${file}:${lineNumber + 1}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + dt);
    byPackage.set(where(url, fn), (byPackage.get(where(url, fn)) ?? 0) + dt);
  });
  return {
    label,
    scenario: load.scenario,
    requests: load.requests,
    perSecDirect: Math.round(load.perSec),
    codes: load.codes,
    cpuUsPerAnswer: load.cpuUsPerAnswer,
    byPackage: top(byPackage, busy, load.requests, 8),
    topFunctions: top(byFunction, busy, load.requests, 10),
  };
}

const [out, ...runs] = process.argv.slice(2);
const summaries = runs.map((run) => summarize(run.split('=')[0], run.split('=')[1]));
writeFileSync(out, `${JSON.stringify(summaries, null, 1)}\n`);
