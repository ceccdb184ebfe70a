import { LabClient, SCHED_INFO, SCHED_STRATEGIES, type SchedRoundView } from '@app/contract';
import { byId, el, reason, say } from './dom';
import { buyerColumn, sharedRows, verdictText } from './scheduler-view';

const POLL_MS = 250;

/**
 * Be the scheduler: a round is one coupon of one unit and two buyers, real grabs held between the
 * named steps of the strategy's path; the learner chooses who runs next.
 */
export class SchedulerPanel {
  private readonly select = byId<HTMLSelectElement>('sched-strategy');
  private readonly expire = byId<HTMLButtonElement>('expire-lease');
  private round?: SchedRoundView;
  private busy = false;
  private following = false;

  constructor(
    private readonly lab: LabClient,
    offered: readonly string[],
    private readonly token: () => string,
  ) {
    const names = SCHED_STRATEGIES.filter((s) => offered.includes(s));
    this.select.replaceChildren(...names.map((s) => el('option', { value: s }, s)));
    this.select.addEventListener('change', () => this.challenge());
    this.challenge();
    byId('sched-start').addEventListener(
      'click',
      () => void this.act(() => this.lab.schedStart(this.select.value, this.token())),
    );
    this.expire.addEventListener(
      'click',
      () => void this.act(() => this.lab.schedExpireLease(this.round!.id, this.token())),
    );
    byId('sched-buyers').addEventListener('click', (event) => {
      const button = (event.target as HTMLElement).closest<HTMLButtonElement>('[data-testid=step-buyer]');
      if (button && this.round)
        void this.act(() => this.lab.schedStep(this.round!.id, Number(button.dataset.buyer), this.token()));
    });
  }

  private challenge(): void {
    const info = SCHED_INFO[this.select.value as keyof typeof SCHED_INFO];
    byId('sched-challenge').textContent = info ? `Challenge: ${info.challenge}` : '';
  }

  /** One action, then the round as the stack has it; a step still running is followed until it ends. */
  private async act(call: () => Promise<SchedRoundView>): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    say('sched-message', 'Asking the stack…');
    try {
      this.show(await call());
      say('sched-message', '');
    } catch (error) {
      say('sched-message', `Refused: ${reason(error)}`, 'error');
    } finally {
      this.busy = false;
      if (this.round) this.show(this.round);
    }
    void this.follow();
  }

  /** Polls the round while a buyer's step runs (waiting for the lock): the other buyer can be stepped meanwhile. */
  private async follow(): Promise<void> {
    if (this.following) return;
    this.following = true;
    try {
      while (this.round?.buyers.some((b) => b.running)) {
        await new Promise((r) => setTimeout(r, POLL_MS));
        if (!this.busy) this.show(await this.lab.schedRound(this.round.id));
      }
    } catch (error) {
      say('sched-message', `The round could not be read: ${reason(error)}`, 'error');
    } finally {
      this.following = false;
    }
  }

  private show(round: SchedRoundView): void {
    this.round = round;
    byId('sched-buyers').replaceChildren(...round.buyers.map((b) => buyerColumn(round, b, this.busy)));
    const state = byId('sched-state');
    state.dataset.stock = String(round.shared.stock);
    state.dataset.grants = String(round.shared.grants);
    state.dataset.lockOwner = round.shared.lockOwner ? String(round.shared.lockOwner) : '';
    state.replaceChildren(...sharedRows(round.shared));
    this.expire.disabled = !SCHED_INFO[round.strategy].leased || round.audit !== undefined;
    const verdict = byId('sched-verdict');
    for (const name of ['couponId', 'oversold', 'maxHolders', 'met']) delete verdict.dataset[name];
    verdict.textContent = '';
    if (!round.audit) return;
    verdict.dataset.couponId = String(round.couponId);
    verdict.dataset.oversold = String(round.audit.oversold);
    verdict.dataset.maxHolders = String(round.audit.maxConcurrentHolders);
    verdict.dataset.met = String(round.met === true);
    verdict.textContent = verdictText(round);
  }
}
