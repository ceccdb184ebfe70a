import type { AnswerTally, GrabAnswer } from '@app/contract';

/** The answers of a load so far, by the replica that answered and by code. */
export class AnswerCounter {
  private readonly counts: AnswerTally = {};
  private total = 0;

  add(answer: GrabAnswer): void {
    // No X-Replica: nginx itself answered (a replica died mid-request), or nothing answered at all.
    const replica = answer.replica ?? 'none';
    const code =
      answer.status === 200
        ? (answer.code ?? '200') // a code on a 200: the room's refusal at a poll (`room sold-out`)
        : answer.status === 0
          ? `no answer (${answer.code})`
          : `${answer.status} ${answer.code ?? ''}`.trim();
    const row = (this.counts[replica] ??= {});
    row[code] = (row[code] ?? 0) + 1;
    this.total += 1;
  }

  get answered(): number {
    return this.total;
  }

  snapshot(): AnswerTally {
    return Object.fromEntries(Object.entries(this.counts).map(([replica, row]) => [replica, { ...row }]));
  }
}
