import { byId } from './dom';

const TOKEN_KEY = 'oversell-lab.admin-token';

/** The admin token as typed into the page; kept in sessionStorage, so it lives only as long as this tab. */
export function adminToken(): () => string {
  const input = byId<HTMLInputElement>('admin-token');
  input.value = sessionStorage.getItem(TOKEN_KEY) ?? '';
  input.addEventListener('input', () => {
    if (input.value) sessionStorage.setItem(TOKEN_KEY, input.value);
    else sessionStorage.removeItem(TOKEN_KEY);
  });
  return () => input.value.trim();
}

type Listener = (running: string | undefined) => void;

/** What this page is running (a load or a step), so it starts one scenario at a time as the server does. */
export class Activity {
  private current?: string;
  private readonly listeners: Listener[] = [];

  get running(): string | undefined {
    return this.current;
  }

  onChange(listener: Listener): void {
    this.listeners.push(listener);
  }

  /** Runs `work` as the page's one scenario; refuses (returns false) while another runs. */
  async run(name: string, work: () => Promise<void>): Promise<boolean> {
    if (this.current) return false;
    this.set(name);
    try {
      await work();
    } finally {
      this.set(undefined);
    }
    return true;
  }

  private set(name: string | undefined): void {
    this.current = name;
    for (const listener of this.listeners) listener(name);
  }
}
