import type { AnswerTally, LabClient, LabConfig, LoadEvent, LoadRequest, StrategyEntry } from '@app/contract';
import { byId, el, isBusy, reason, say } from './dom';
import { LoadLanes } from './lanes';
import { judgeRun } from './run-verdict';
import type { Activity } from './session';
import { StockChart } from './stock-chart';

type RunState = 'idle' | 'running' | 'done' | 'error';

/** The load form, its live figures (stock, answers, lanes) and the audit's verdict. */
export class LoadPanel {
  private readonly lanes: LoadLanes;
  private readonly chart: StockChart;
  private controller?: AbortController;
  /** The run in progress, so faults know there is one. */
  couponId?: number;
  /** The strategy of the run in progress, for its verdict. */
  private strategy = '';

  constructor(
    private readonly lab: Pick<LabClient, 'runLoad'>,
    private readonly config: LabConfig,
    private readonly strategies: readonly StrategyEntry[],
    private readonly activity: Activity,
  ) {
    this.lanes = new LoadLanes(byId('lanes-box'), byId('overlaps'), config.replicas);
    this.chart = new StockChart(byId('stock-box'), byId('stock-gap'));
    this.fillStrategies();
    for (const [id, field] of [
      ['stock', 'stock'],
      ['buyers', 'buyers'],
      ['work-ms', 'workMs'],
    ] as const) {
      const input = byId<HTMLInputElement>(id);
      input.min = String(config.limits[field].min);
      input.max = String(config.limits[field].max);
    }
    byId('load-form').addEventListener('submit', (event) => {
      event.preventDefault();
      void this.start();
    });
    byId('stop').addEventListener('click', () => this.controller?.abort());
    activity.onChange((running) => {
      byId<HTMLButtonElement>('run').disabled = running !== undefined;
    });
  }

  private fillStrategies(): void {
    const select = byId<HTMLSelectElement>('strategy');
    select.replaceChildren(...this.strategies.map((s) => el('option', { value: s.name }, s.name)));
    const about = () => {
      const chosen = this.strategies.find((s) => s.name === select.value);
      byId('strategy-about').replaceChildren(
        ...(chosen
          ? [el('dt', {}, 'Fixes'), el('dd', {}, chosen.fixes), el('dt', {}, 'Breaks'), el('dd', {}, chosen.breaks)]
          : []),
      );
    };
    select.addEventListener('change', about);
    about();
  }

  /** The form's settings, or a sentence saying which one is out of range. */
  private settings(): LoadRequest | string {
    const value = (id: string) => Number(byId<HTMLInputElement>(id).value);
    const request = {
      strategy: byId<HTMLSelectElement>('strategy').value,
      stock: value('stock'),
      buyers: value('buyers'),
      workMs: value('work-ms'),
    };
    for (const field of ['stock', 'buyers', 'workMs'] as const) {
      const { min, max } = this.config.limits[field];
      const v = request[field];
      if (!Number.isInteger(v) || v < min || v > max) return `${field} must be a whole number from ${min} to ${max}`;
    }
    return request;
  }

  private setState(state: RunState): void {
    const node = byId('run-state');
    node.dataset.state = state;
    node.textContent = state;
    byId<HTMLButtonElement>('stop').disabled = state !== 'running';
  }

  private async start(): Promise<void> {
    const request = this.settings();
    if (typeof request === 'string') return say('load-message', request, 'error');
    const started = await this.activity.run(`load ${request.strategy}`, () => this.run(request));
    if (!started) say('load-message', `Wait until ${this.activity.running} has finished.`, 'warn');
  }

  private async run(request: LoadRequest): Promise<void> {
    this.controller = new AbortController();
    say('load-message', '');
    const verdict = byId('verdict');
    verdict.textContent = '';
    for (const name of ['couponId', 'oversold', 'lostUpdates', 'maxHolders', 'granted', 'acceptedWithoutGrant', 'kind'])
      delete verdict.dataset[name];
    this.lanes.reset(`${request.strategy}: ${request.buyers} buyers for ${request.stock}`, this.config.replicas);
    this.showAnswers({});
    this.setState('running');
    const outcome: { state: RunState } = { state: 'error' };
    let ended: RunState = 'error';
    try {
      await this.lab.runLoad(
        request,
        (event) => (outcome.state = this.onEvent(event) ?? outcome.state),
        this.controller.signal,
      );
      ended = outcome.state;
      if (ended !== 'done') say('load-message', 'The run ended without a verdict.', 'error');
    } catch (error) {
      const aborted = this.controller.signal.aborted;
      say(
        'load-message',
        aborted ? 'Stopped: the lab cancelled the run.' : reason(error),
        isBusy(error) ? 'warn' : 'error',
      );
      ended = 'error';
    } finally {
      this.couponId = undefined;
      this.lanes.flush();
      this.chart.flush();
      this.setState(ended);
    }
  }

  private onEvent(event: LoadEvent): RunState | undefined {
    switch (event.type) {
      case 'started':
        this.couponId = event.couponId;
        this.strategy = event.request.strategy;
        byId('stock-left').textContent = String(event.request.stock);
        this.chart.reset(event.request.stock, event.redisCounter);
        return undefined;
      case 'progress':
        byId('stock-left').textContent = String(event.stock);
        this.figures(event.sent, event.answered, event.answers);
        this.lanes.addGrants(event.grants);
        this.chart.add(event);
        return undefined;
      case 'fault':
        this.lanes.addTick({ lane: event.lane, at: event.at, type: event.fault, detail: event.detail });
        say('fault-message', event.detail);
        return undefined;
      case 'done': {
        this.figures(event.sent, event.answered, event.answers);
        byId('stock-left').textContent = String(event.audit.stock);
        const { audit } = event;
        const verdict = byId('verdict');
        Object.assign(verdict.dataset, {
          couponId: String(event.couponId),
          oversold: String(audit.oversold),
          lostUpdates: String(audit.lostUpdates),
          maxHolders: String(audit.maxConcurrentHolders),
          granted: String(audit.grants),
        });
        if (event.orders) verdict.dataset.acceptedWithoutGrant = String(event.orders.withoutGrant);
        const { exact, wrongs } = judgeRun(this.strategy, audit, event.answers, event.orders);
        verdict.dataset.kind = exact ? 'info' : 'error';
        verdict.textContent =
          `${exact ? '✔ Exact' : `✘ Wrong (${wrongs.join('; ')})`} (audit of coupon ${event.couponId}): ${audit.grants} granted for a stock of ${audit.initialStock}, ` +
          `oversold ${audit.oversold}, lost updates ${audit.lostUpdates}, at most ${audit.maxConcurrentHolders} holder${audit.maxConcurrentHolders === 1 ? '' : 's'} at once.`;
        return 'done';
      }
      case 'error':
        say('load-message', `${event.code}: ${event.message}`, 'error');
        return 'error';
    }
  }

  private figures(sent: number, answered: number, answers: AnswerTally): void {
    byId('sent').textContent = String(sent);
    byId('answered').textContent = String(answered);
    this.showAnswers(answers);
  }

  private showAnswers(answers: AnswerTally): void {
    const replicas = Object.keys(answers).sort();
    const codes = [...new Set(replicas.flatMap((r) => Object.keys(answers[r])))].sort();
    const head = el(
      'tr',
      {},
      el('th', { scope: 'col' }, 'replica'),
      ...codes.map((c) => el('th', { scope: 'col' }, c)),
    );
    const rows = replicas.map((r) =>
      el('tr', {}, el('th', { scope: 'row' }, r), ...codes.map((c) => el('td', {}, String(answers[r][c] ?? 0)))),
    );
    byId('answers').replaceChildren(
      el('caption', {}, 'Answers by replica and code'),
      el('thead', {}, head),
      el('tbody', {}, ...rows),
    );
  }
}
