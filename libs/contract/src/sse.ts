/** One server-sent event: its `event:` name (`message` when none) and its `data:` lines joined. */
export interface SseMessage {
  readonly event: string;
  readonly data: string;
}

/**
 * Reads the text/event-stream format incrementally: feed it text as it arrives, get the events
 * completed so far. Comments (`:` lines) are dropped; `id:` and `retry:` are not used here.
 */
export class SseParser {
  private buffer = '';

  push(text: string): SseMessage[] {
    this.buffer += text.replace(/\r\n?/g, '\n');
    const messages: SseMessage[] = [];
    for (let end = this.buffer.indexOf('\n\n'); end >= 0; end = this.buffer.indexOf('\n\n')) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line === '' || line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length) messages.push({ event, data: data.join('\n') });
    }
    return messages;
  }
}

/** One event as the stream's text: `event:` then the JSON on one `data:` line. */
export function sseFrame(event: string, payload: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
}
