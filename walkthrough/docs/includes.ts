/**
 * The generated parts of docs/walkthrough.md, between markers, so the prose around them is
 * hand-written and the code and figures in them never are:
 *
 *   <!-- include: libs/lock/src/scripts/release.lua -->  …  <!-- /include -->
 *   <!-- section: run -->  …  <!-- /section: run -->   (tools/docs/doc-sections.ts)
 */

const INCLUDE = /<!-- include: (\S+) -->\n[\s\S]*?<!-- \/include -->/g;

export { DocMarkerError, fillSection, sectionBody } from '../../tools/docs/doc-sections';

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
