/** `97+41`: Node's and Redis's CPU µs per grant, as runs that measured it carry it; '–' otherwise. */
export function cpuCell(cost?: { readonly node: number; readonly redis: number }): string {
  return cost ? `${cost.node.toFixed(0)}+${cost.redis.toFixed(0)}` : '–';
}
