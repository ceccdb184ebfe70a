import { freezeEventLoop, sectionWork } from './section-work';

describe('section work', () => {
  it('freezing blocks timers: a timer due during the freeze fires only after it', async () => {
    let firedAt = 0;
    const start = Date.now();
    const timer = new Promise<void>((resolve) =>
      setTimeout(() => {
        firedAt = Date.now();
        resolve();
      }, 5),
    );
    freezeEventLoop(60);
    await timer;
    expect(firedAt - start).toBeGreaterThanOrEqual(55);
  });

  it('pausing lets timers run meanwhile', async () => {
    let ticks = 0;
    const interval = setInterval(() => ticks++, 5);
    await sectionWork({ pauseMs: 60 })();
    clearInterval(interval);
    expect(ticks).toBeGreaterThan(3);
  });
});
