/**
 * A live status line on stderr: rewritten in place on a terminal (at most every 100 ms),
 * and on a pipe only the final line of each step, so logs stay readable.
 */
export class ProgressLine {
  private lastDrawAt = 0;
  private drawn = false;

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}

  update(text: string): void {
    if (!this.stream.isTTY) return;
    const now = Date.now();
    if (now - this.lastDrawAt < 100) return;
    this.lastDrawAt = now;
    this.stream.write(`\r\x1b[2K${text}`);
    this.drawn = true;
  }

  done(text: string): void {
    this.stream.write(this.drawn ? `\r\x1b[2K${text}\n` : `${text}\n`);
    this.drawn = false;
    this.lastDrawAt = 0;
  }
}
