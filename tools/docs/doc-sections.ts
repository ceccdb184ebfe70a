/**
 * Generated parts of a hand-written document (README.md, docs/walkthrough.md), between markers,
 * so the prose around them is written by hand and the figures in them never are:
 *
 *   <!-- section: performance -->  …  <!-- /section: performance -->
 */

/** A document lacks the markers a generated part goes between. */
export class DocMarkerError extends Error {
  override readonly name = 'DocMarkerError';
  readonly code = 'DOCS.MARKER';
}

/** The body of the named section replaced; the markers must be there, once. */
export function fillSection(doc: string, name: string, body: string): string {
  const open = `<!-- section: ${name} -->`;
  const close = `<!-- /section: ${name} -->`;
  const start = doc.indexOf(open);
  const end = doc.indexOf(close);
  if (start < 0 || end < start || doc.indexOf(open, start + 1) >= 0)
    throw new DocMarkerError(`expected one "${open}" … "${close}" pair`);
  return `${doc.slice(0, start + open.length)}\n${body.trim()}\n${doc.slice(end)}`;
}

/** The body of the named section, or undefined when the markers are missing. */
export function sectionBody(doc: string, name: string): string | undefined {
  const open = `<!-- section: ${name} -->`;
  const start = doc.indexOf(open);
  const end = doc.indexOf(`<!-- /section: ${name} -->`);
  return start < 0 || end < start ? undefined : doc.slice(start + open.length, end).trim();
}
