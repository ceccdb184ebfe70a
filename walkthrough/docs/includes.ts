/**
 * The generated parts of docs/walkthrough.md, between markers, so the prose around them is
 * hand-written and the code and figures in them never are:
 *
 *   <!-- include: libs/lock/src/scripts/owner-release.lua -->  …  <!-- /include -->
 *   <!-- section: run -->  …  <!-- /section -->
 */
import { DocMarkerError } from '../walkthrough.errors';

const INCLUDE = /<!-- include: (\S+) -->\n[\s\S]*?<!-- \/include -->/g;

export { DocMarkerError } from '../walkthrough.errors';

/** The files the document includes, in order. */
export function includedPaths(doc: string): string[] {
  return [...doc.matchAll(INCLUDE)].map((m) => m[1]);
}

const LANGUAGES: Record<string, string> = { lua: 'lua', ts: 'ts', js: 'js', json: 'json', sql: 'sql' };

/** A file as a fenced block, named; a fence longer than any backtick run inside it. */
export function renderInclude(path: string, text: string): string {
  const language = LANGUAGES[path.split('.').pop() ?? ''] ?? '';
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `<!-- include: ${path} -->\n\`${path}\`\n\n${fence}${language}\n${text.replace(/\s+$/, '')}\n${fence}\n<!-- /include -->`;
}

/** Every include block refreshed from `read(path)`. */
export function fillIncludes(doc: string, read: (path: string) => string): string {
  return doc.replace(INCLUDE, (_block, path: string) => renderInclude(path, read(path)));
}

/** The body of the named section replaced; the markers must be there, once. */
export function fillSection(doc: string, name: string, body: string): string {
  const open = `<!-- section: ${name} -->`;
  const close = `<!-- /section: ${name} -->`;
  const start = doc.indexOf(open);
  const end = doc.indexOf(close);
  if (start < 0 || end < start || doc.indexOf(open, start + 1) >= 0) throw new DocMarkerError(`expected one "${open}" … "${close}" pair`);
  return `${doc.slice(0, start + open.length)}\n${body.trim()}\n${doc.slice(end)}`;
}

/** The body of the named section, or undefined when the markers are missing. */
export function sectionBody(doc: string, name: string): string | undefined {
  const open = `<!-- section: ${name} -->`;
  const start = doc.indexOf(open);
  const end = doc.indexOf(`<!-- /section: ${name} -->`);
  return start < 0 || end < start ? undefined : doc.slice(start + open.length, end).trim();
}
