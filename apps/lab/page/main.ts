import { ApiClient, LabClient } from '@app/contract';
import { byId, el, reason, say } from './dom';
import { FaultPanel } from './fault-panel';
import { LoadPanel } from './load-panel';
import { SchedulerPanel } from './scheduler-panel';
import { RoomPanel } from './room-panel';
import { StepPanel } from './step-panel';
import { Activity, adminToken } from './session';

/** The page lives at /lab/ on the same nginx as the API: both are asked on this origin. */
async function start(): Promise<void> {
  const lab = new LabClient(`${location.origin}/lab`);
  const api = new ApiClient({ baseUrl: location.origin, timeoutMs: 10_000 });
  const [config, strategies] = await Promise.all([lab.config(), api.strategies()]);
  byId('notes').replaceChildren(...config.notes.map((note) => el('li', {}, note)));
  const activity = new Activity();
  const token = adminToken();
  const load = new LoadPanel(new RoomPanel(lab), config, strategies, activity);
  new FaultPanel(lab, config, load, token);
  new StepPanel(lab, config, activity, token);
  new SchedulerPanel(
    lab,
    strategies.map((s) => s.name),
    token,
  );
  // When the page became usable: what `npm run lab:screenshot` reports as its load time.
  performance.mark('lab-ready');
}

start().catch((error) => {
  say('load-message', `The lab could not start: ${reason(error)}`, 'error');
});
