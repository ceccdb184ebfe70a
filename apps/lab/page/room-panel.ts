import { ROOM_LIMITS } from '@app/contract';
import type { LabClient, LoadEvent, LoadRequest } from '@app/contract';
import { byId, el } from './dom';
import { roomChartSvg, STACK, stateStyle, type RoomReading } from './room-chart-svg';

/**
 * The load's waiting room: its toggle and pace in the load form, and the buyers' states over time.
 * The load panel's runs go through here: the room joins the request when the toggle is on (the lab
 * server checks its pace), and the chart takes the states each progress carries.
 */
export class RoomPanel implements Pick<LabClient, 'runLoad'> {
  private readings: RoomReading[] = [];
  private buyers = 0;
  private frame = 0;
  private readonly toggle = byId<HTMLInputElement>('room-toggle');
  private readonly pace = byId<HTMLInputElement>('room-admit-per-sec');
  private readonly box = byId('room-box');

  constructor(private readonly lab: Pick<LabClient, 'runLoad'>) {
    this.pace.min = String(ROOM_LIMITS.admitPerSec.min);
    this.pace.max = String(ROOM_LIMITS.admitPerSec.max);
    const follow = () => (this.pace.disabled = !this.toggle.checked);
    this.toggle.addEventListener('change', follow);
    follow();
    byId('room-legend').replaceChildren(
      ...[...STACK]
        .reverse()
        .map((state) => el('li', {}, el('span', { class: `swatch room-${state}` }), stateStyle[state].label)),
    );
    window.addEventListener('resize', () => this.draw());
  }

  runLoad(request: LoadRequest, onEvent: (event: LoadEvent) => void, signal?: AbortSignal): Promise<void> {
    const room = this.toggle.checked ? { admitPerSec: Number(this.pace.value) } : undefined;
    this.readings = [];
    this.buyers = request.buyers;
    byId('room-view').hidden = !room;
    this.draw();
    const tap = (event: LoadEvent) => {
      if (event.type === 'progress' && event.room) {
        this.readings.push({ at: event.at, counts: event.room });
        this.draw();
      }
      onEvent(event);
    };
    return this.lab.runLoad({ ...request, ...(room && { room }) }, tap, signal).finally(() => this.flush());
  }

  /** Draws now what has arrived. */
  private flush(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    const width = Math.max(320, Math.floor(this.box.clientWidth || 900));
    this.box.innerHTML = roomChartSvg(this.readings, { buyers: this.buyers, width });
  }

  private draw(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => this.flush());
  }
}
