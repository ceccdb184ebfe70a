import { escapeXml, fileStamp, wrap } from './format';

describe('wrap', () => {
  it('wraps at spaces only', () => {
    expect(wrap('aa bb cc', 5)).toBe('aa bb\ncc');
    expect(wrap('toolongword x', 4)).toBe('toolongword\nx');
  });
});

describe('fileStamp', () => {
  it('makes a file-name-safe stamp', () => {
    expect(fileStamp('2026-11-22T04:30:05.123Z')).toBe('2026-11-22T04-30-05Z');
  });
});

describe('escapeXml', () => {
  it('escapes what would end a text node or an attribute', () => {
    expect(escapeXml('<a href="x">&</a>')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;');
  });
});
