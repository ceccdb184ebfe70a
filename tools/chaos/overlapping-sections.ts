import type { Grant } from '@app/contract';

/**
 * Pairs of grants on one stock row (the coupon, or one segment) whose sections overlapped in time,
 * from the grant rows' own timestamps (the database's clock). A lost update needs an overlap: a
 * holder's stale write overwrote another's decrement, and one pair can lose one decrement at most.
 */
export function overlappingSections(grants: readonly Pick<Grant, 'segment' | 'enteredAt' | 'leftAt'>[]): number {
  const bySegment = new Map<number, Array<{ start: number; end: number }>>();
  for (const g of grants) {
    const row = bySegment.get(g.segment) ?? [];
    row.push({ start: Date.parse(g.enteredAt), end: Date.parse(g.leftAt) });
    bySegment.set(g.segment, row);
  }
  let pairs = 0;
  for (const sections of bySegment.values()) {
    sections.sort((a, b) => a.start - b.start);
    sections.forEach((s, i) => {
      for (let j = i + 1; j < sections.length && sections[j].start < s.end; j++) pairs += 1;
    });
  }
  return pairs;
}
