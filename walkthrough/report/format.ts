import type { Figure } from '../step';

/** A figure as people read it: yes/no, a dash for nothing, numbers and text as they are. */
export function formatFigure(value: Figure): string {
  if (value === null) return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

/** camelCase figure names as words: "maxConcurrentHolders" → "max concurrent holders". */
export function figureLabel(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase();
}
