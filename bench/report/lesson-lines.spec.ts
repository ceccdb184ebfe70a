import { renderLessons } from './render-text';

describe('renderLessons', () => {
  it('marks each lesson, wraps it within the width, and gives the two numbers when it did not hold', () => {
    const lessons = [
      { id: 'a', text: 'word '.repeat(30).trim(), held: true },
      { id: 'b', text: 'Short.', held: false, notHeld: '1 vs 2' },
    ];
    const [heading, ...lines] = renderLessons({ lessons }, 40).split('\n');
    expect(heading).toBe('What this run teaches:');
    expect(lines[0]).toMatch(/^held {7}word/);
    expect(lines.every((l) => l.length <= 40)).toBe(true);
    expect(lines.slice(-2)).toEqual(['not held   Short.', '           (1 vs 2)']);
  });
});
