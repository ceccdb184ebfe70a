import { SCHED_INFO, type SchedBuyer, type SchedRoundView, type SchedShared } from '@app/contract';
import { el } from './dom';

/** One buyer's column: its steps as the strategy's code, the next one marked, and its Step button. */
export function buyerColumn(round: SchedRoundView, buyer: SchedBuyer, busy: boolean): HTMLElement {
  const n = String(buyer.buyer);
  const lines = SCHED_INFO[round.strategy].lines.map((line) =>
    el(
      'li',
      {
        'data-step': line.step,
        class: line.step === buyer.next ? 'next' : undefined,
        'aria-current': line.step === buyer.next ? 'step' : undefined,
      },
      el('code', {}, line.code),
    ),
  );
  lines.push(
    el(
      'li',
      { 'data-step': 'done', class: buyer.next === 'done' ? 'next' : undefined },
      el('code', {}, 'return; // done'),
    ),
  );
  const status = buyer.running
    ? `running ${buyer.next}… (waiting inside the step, for the lock)`
    : buyer.next === 'done'
      ? `done: ${answerText(buyer)}`
      : `next: ${buyer.next}`;
  return el(
    'div',
    { class: 'sched-buyer', 'data-buyer': n },
    el('h3', {}, `Buyer ${n} on ${buyer.replica}`),
    el('ol', { class: 'sched-code' }, ...lines),
    el('p', { 'data-testid': 'next-step', 'data-buyer': n, 'data-step': buyer.next, role: 'status' }, status),
    el(
      'button',
      {
        type: 'button',
        'data-testid': 'step-buyer',
        'data-buyer': n,
        disabled: busy || buyer.running || buyer.next === 'done',
      },
      `Step buyer ${n}`,
    ),
  );
}

const answerText = (buyer: SchedBuyer) => {
  const a = buyer.answer;
  if (!a) return '';
  if (a.status === 200) return 'granted (200)';
  return `${a.status} ${a.code ?? ''}`.trim();
};

/** The shared state as the stack holds it: the stock row, the grant rows, the lock key. */
export function sharedRows(shared: SchedShared): HTMLElement[] {
  const lock =
    shared.lockTtlMs === -2
      ? 'no lock key'
      : `owner ${shared.lockOwner ? `buyer ${shared.lockOwner}` : 'no buyer'} (${(shared.lockValue ?? '').slice(0, 8)}…), ` +
        `time to live ${shared.lockTtlMs < 0 ? 'none' : `${(shared.lockTtlMs / 1000).toFixed(1)} s`}`;
  return [
    el('div', {}, el('span', {}, 'Stock row (PostgreSQL)'), el('output', {}, String(shared.stock))),
    el('div', {}, el('span', {}, 'Grant rows'), el('output', {}, String(shared.grants))),
    el('div', { class: 'sched-lock' }, el('span', {}, 'Lock key (Redis)'), el('output', {}, lock)),
  ];
}

/** The verdict, from the audit, and what it says of the challenge. */
export function verdictText(round: SchedRoundView): string {
  const audit = round.audit!;
  const info = SCHED_INFO[round.strategy];
  const figures = `Audit: ${audit.grants} grant(s) of 1 unit, oversold ${audit.oversold}, at most ${audit.maxConcurrentHolders} holder(s) at once.`;
  if (round.met) return `${figures} Challenge met: you made it happen.`;
  if (info.goal) return `${figures} Not this time: start a new round and try another order.`;
  return audit.oversold > 0
    ? `${figures} Sold twice after all: ${info.why ?? ''}`
    : `${figures} It could not be done. ${info.why ?? ''}`;
}
