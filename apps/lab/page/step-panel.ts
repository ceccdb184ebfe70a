import type { LabClient, LabConfig, LabStep, StepEvent } from '@app/contract';
import { figureLabel, formatFigure } from '../../../walkthrough/report/format';
import type { StepResult } from '../../../walkthrough/step';
import { byId, el, isBusy, reason, say } from './dom';
import { drawTimeline } from './lanes';
import type { Activity } from './session';

/** One button per walkthrough step; its narration, figures, checks, timeline and verdict as it runs. */
export class StepPanel {
  private readonly buttons: HTMLButtonElement[] = [];

  constructor(
    private readonly lab: LabClient,
    config: LabConfig,
    private readonly activity: Activity,
    private readonly token: () => string,
  ) {
    byId('steps').replaceChildren(...config.steps.map((step) => this.item(step)));
    activity.onChange((running) => {
      for (const button of this.buttons) button.disabled = running !== undefined;
    });
  }

  private item(step: LabStep): HTMLLIElement {
    const button = el(
      'button',
      { type: 'button', 'data-step': step.name, 'aria-describedby': `step-${step.name}-about` },
      `Run ${step.name}`,
    );
    this.buttons.push(button);
    button.addEventListener('click', () => void this.start(step));
    const needs = step.uses.includes('fault') ? ' Needs the admin token.' : '';
    const about = el(
      'div',
      { id: `step-${step.name}-about`, class: 'about' },
      el('p', {}, el('strong', {}, step.title)),
      el(
        'details',
        {},
        el('summary', {}, 'What happens'),
        el('p', {}, step.explain),
        el('p', {}, `Expected: ${step.expected}`),
      ),
      el('p', { class: 'why-not' }, step.available ? needs.trim() : `Not here: ${step.reason}`),
    );
    return el(
      'li',
      { class: 'step' },
      el('div', { class: 'step-head' }, button, about),
      el('div', { id: `step-${step.name}-out`, class: 'step-out' }),
    );
  }

  private async start(step: LabStep): Promise<void> {
    if (!step.available) return say('step-message', `${step.name}: not possible here. ${step.reason}`, 'warn');
    const token = this.token();
    if (step.uses.includes('fault') && !token)
      return say(
        'step-message',
        `${step.name} injects a fault, so it needs the admin token: type it above first.`,
        'warn',
      );
    const started = await this.activity.run(`step ${step.name}`, () => this.run(step, token));
    if (!started) say('step-message', `Wait until ${this.activity.running} has finished.`, 'warn');
  }

  private async run(step: LabStep, token: string): Promise<void> {
    const out = byId(`step-${step.name}-out`);
    const story = el('ol', { class: 'story', 'aria-live': 'polite' });
    out.replaceChildren(el('h4', {}, step.title), story);
    say('step-message', `Running ${step.name}…`);
    let result: StepResult | undefined;
    try {
      await this.lab.runStep<StepResult>(
        step.name,
        (event: StepEvent<StepResult>) => {
          if (event.type === 'say') story.append(el('li', {}, event.line));
          else if (event.type === 'result') result = event.result;
          else if (event.type === 'error')
            story.append(el('li', { class: 'error' }, `${event.code}: ${event.message}`));
        },
        { adminToken: token || undefined },
      );
      say('step-message', result ? `${step.name}: ${result.verdict}` : `${step.name} ended without a result`);
    } catch (error) {
      say('step-message', `${step.name}: ${reason(error)}`, isBusy(error) ? 'warn' : 'error');
    }
    if (result) this.showResult(out, step, result);
  }

  private showResult(out: HTMLElement, step: LabStep, result: StepResult): void {
    const figures = el(
      'table',
      {},
      el('caption', {}, 'Observed'),
      el(
        'tbody',
        {},
        ...Object.entries(result.observed).map(([k, v]) =>
          el('tr', {}, el('th', { scope: 'row' }, figureLabel(k)), el('td', {}, formatFigure(v))),
        ),
      ),
    );
    const checks = el(
      'ul',
      { class: 'checks' },
      ...result.checks.map((c) =>
        el(
          'li',
          { 'data-pass': String(c.pass) },
          `${c.pass ? '✔ pass' : '✘ FAIL'}: ${c.what}: ${formatFigure(c.observed)} (expected ${c.expected})`,
        ),
      ),
    );
    const asExpected = result.status === 'passed';
    const verdict = el(
      'p',
      {
        class: 'verdict',
        'data-testid': 'step-verdict',
        'data-step': step.name,
        'data-as-expected': String(asExpected),
        'data-kind': asExpected ? 'info' : 'error',
      },
      `${asExpected ? '✔' : '✘'} Verdict: ${result.verdict}. ${result.summary}`,
    );
    const timeline = el('div', { class: 'lanes' });
    out.append(el('div', { class: 'scroll' }, figures), checks, timeline, verdict);
    if (result.timeline) drawTimeline(timeline, result.timeline);
  }
}
