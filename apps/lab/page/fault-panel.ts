import type { LabClient, LabConfig, LabFault } from '@app/contract';
import { byId, el, reason, say } from './dom';
import type { LoadPanel } from './load-panel';

/** One button per fault; each says why when it cannot be used, and then nothing is sent. */
export class FaultPanel {
  constructor(
    private readonly lab: LabClient,
    private readonly config: LabConfig,
    private readonly load: LoadPanel,
    private readonly token: () => string,
  ) {
    const replica = byId<HTMLSelectElement>('fault-replica');
    replica.replaceChildren(...config.replicas.map((r) => el('option', { value: r }, r)));
    byId('faults').replaceChildren(...config.faults.map((fault) => this.item(fault)));
    // Enter in the token field must not reload the page.
    byId('fault-form').addEventListener('submit', (event) => event.preventDefault());
  }

  private item(fault: LabFault): HTMLLIElement {
    const describedBy = `fault-${fault.name}-what`;
    const button = el(
      'button',
      {
        type: 'button',
        'data-fault': fault.name,
        'aria-describedby': describedBy,
        'aria-disabled': fault.available ? undefined : 'true',
      },
      fault.label,
    );
    button.addEventListener('click', () => void this.inject(fault));
    const what = el(
      'span',
      { id: describedBy, class: 'what' },
      fault.what,
      fault.available ? undefined : el('em', { class: 'why-not' }, ` Not here: ${fault.reason}`),
    );
    return el('li', {}, button, what);
  }

  /** Refuses on the page (nothing sent) without chaos, a token or a running load; else asks the lab. */
  private async inject(fault: LabFault): Promise<void> {
    if (!fault.available) return say('fault-message', `${fault.label}: not possible here. ${fault.reason}`, 'warn');
    const token = this.token();
    if (!token) return say('fault-message', `${fault.label} needs the admin token: type it above first.`, 'warn');
    if (this.load.couponId === undefined)
      return say('fault-message', `${fault.label} goes into a running load: press Run first.`, 'warn');
    const replica = byId<HTMLSelectElement>('fault-replica').value;
    say('fault-message', `${fault.label}: sending…`);
    try {
      const done = await this.lab.fault(fault.name, token, fault.targetsReplica ? { replica } : {});
      say('fault-message', done.detail);
    } catch (error) {
      say('fault-message', `${fault.label} refused: ${reason(error)}`, 'error');
    }
  }
}
