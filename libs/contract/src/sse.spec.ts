import { SseParser, sseFrame } from './sse';

describe('SseParser', () => {
  it('reads events split anywhere across chunks, in order', () => {
    const text = sseFrame('progress', { n: 1 }) + ': keep-alive\n\n' + sseFrame('done', { ok: true });
    const parser = new SseParser();
    const got = [];
    for (let i = 0; i < text.length; i += 7) got.push(...parser.push(text.slice(i, i + 7)));
    expect(got).toEqual([
      { event: 'progress', data: '{"n":1}' },
      { event: 'done', data: '{"ok":true}' },
    ]);
  });

  it('joins multi-line data, defaults the event name and accepts CRLF', () => {
    expect(new SseParser().push('data: a\r\ndata: b\r\n\r\n')).toEqual([{ event: 'message', data: 'a\nb' }]);
  });

  it('keeps an unfinished event until its blank line arrives', () => {
    const parser = new SseParser();
    expect(parser.push('event: x\ndata: 1\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'x', data: '1' }]);
  });
});
