/** A status line on stderr: redrawn in place on a terminal (at most every 100 ms), on a pipe only each step's last. */
export class ProgressLine {
  /** When the line was last drawn in place: 0 when it was not, since the last step. */
  private drawnAt = 0;

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}

  update(text: string): void {
    const now = Date.now();
    if (!this.stream.isTTY || now - this.drawnAt < 100) return;
    this.drawnAt = now;
    this.stream.write(`\r\x1b[2K${text}`);
  }

  done(text: string): void {
    this.stream.write(this.drawnAt > 0 ? `\r\x1b[2K${text}\n` : `${text}\n`);
    this.drawnAt = 0;
  }
}
