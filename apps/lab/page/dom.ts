/** The few DOM helpers the page needs: no framework, the page is small enough to read in one sitting. */

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the page has no #${id}`);
  return found as T;
}

type Child = Node | string | null | undefined | false;

/** An element with attributes (`class`, `data-*`, `aria-*`, …) and children (text is text, never HTML). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

/** A status line: its text, and a class that colours it (never the only signal: the words say it too). */
export function say(id: string, text: string, kind: 'info' | 'warn' | 'error' = 'info'): void {
  const node = byId(id);
  node.textContent = text;
  node.dataset.kind = kind;
}

/** The message of anything thrown, as a person reads it (the API's JSON `message` when there is one). */
export function reason(error: unknown): string {
  const body = (error as { body?: unknown }).body;
  if (typeof body === 'string') {
    try {
      const parsed = JSON.parse(body) as { message?: unknown };
      if (typeof parsed.message === 'string') return parsed.message;
    } catch {
      /* not JSON: fall through */
    }
  }
  return error instanceof Error ? error.message : String(error);
}

/** The 409 LAB.BUSY answer, as a sentence. */
export function isBusy(error: unknown): boolean {
  return (error as { errorCode?: string }).errorCode === 'LAB.BUSY';
}
