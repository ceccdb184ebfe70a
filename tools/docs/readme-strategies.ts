/**
 * The strategy names of the README's strategies table (`## The strategies`), in its order: the
 * first cell of each row, in backticks. Users read the list there, so the API is checked against it.
 */
export function readmeStrategies(readme: string): string[] {
  const section = readme.split(/^## /m).find((s) => s.startsWith('The strategies\n'));
  if (section === undefined) throw new Error('README.md has no "## The strategies" section');
  return [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
}

/** The walkthrough steps each strategy's row names in its last cell ("shown by"): `step \`a\``, `steps \`a\`, \`b\``. */
export function readmeShownBySteps(readme: string): Map<string, string[]> {
  const section = readme.split(/^## /m).find((s) => s.startsWith('The strategies\n')) ?? '';
  const rows = [...section.matchAll(/^\| `([^`]+)` \|.*\| ([^|]*) \|$/gm)];
  return new Map(
    rows.map(([, name, cell]) => {
      const listed = /\bsteps? ((?:`[^`]+`(?:, )?)+)/.exec(cell)?.[1] ?? '';
      return [name, [...listed.matchAll(/`([^`]+)`/g)].map((m) => m[1])];
    }),
  );
}
