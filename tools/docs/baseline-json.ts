/**
 * A run as committed to bench/baselines/: indented, but an object or array of plain values stays on
 * one line, so a run's samples read one to a line. The soak's samples keep what its verdict and
 * charts read, rounded (ms whole, MiB and lag to a hundredth).
 */
export function baselineJson(kind: string, run: unknown): string {
  return `${render(kind === 'soak' ? roundSoakSamples(run) : run, '')}\n`;
}

const isPlain = (v: unknown) => typeof v !== 'object' || v === null;

function render(value: unknown, indent: string): string {
  if (isPlain(value) || Object.values(value as object).every(isPlain)) return JSON.stringify(value);
  const inner = `${indent}  `;
  const members = Array.isArray(value)
    ? value.map((v) => render(v, inner))
    : Object.entries(value as object)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${JSON.stringify(k)}: ${render(v, inner)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return `${open}\n${members.map((m) => inner + m).join(',\n')}\n${indent}${close}`;
}

const round = (x: unknown, digits: number) => (typeof x === 'number' ? Number(x.toFixed(digits)) : x);

function roundSoakSamples(run: unknown): unknown {
  const soak = run as { samples?: Record<string, unknown>[] };
  if (!Array.isArray(soak.samples)) return run;
  const samples = soak.samples.map((s) => ({
    ...s,
    atMs: round(s.atMs, 0),
    rssMb: round(s.rssMb, 2),
    heapMb: round(s.heapMb, 2),
    lagP99Ms: round(s.lagP99Ms, 2),
  }));
  return { ...soak, samples };
}
