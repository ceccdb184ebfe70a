import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { STRATEGY_NAMES } from '@app/contract';
import { readmeShownBySteps } from '../../tools/docs/readme-strategies';
import { allSteps } from './index';

// The README's "shown by" column, against the steps that exist (here, since tools never import the walkthrough).
const readme = readFileSync(resolve(__dirname, '..', '..', 'README.md'), 'utf8');

describe("the README's strategy table", () => {
  it("names, in each strategy's 'shown by', a walkthrough step that runs it wherever one does", () => {
    const shownBy = readmeShownBySteps(readme);
    const names = new Set(allSteps.map((s) => s.name));
    for (const strategy of STRATEGY_NAMES) {
      const steps = shownBy.get(strategy) ?? [];
      for (const step of steps) expect(names).toContain(step);
      const running = allSteps.filter((s) => s.requires.includes(strategy)).map((s) => s.name);
      if (running.length > 0)
        expect({ strategy, named: steps.filter((s) => running.includes(s)).length > 0 }).toEqual({
          strategy,
          named: true,
        });
    }
  });
});
