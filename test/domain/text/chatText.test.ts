import { describe, expect, it } from 'vitest';
import { largestFitting, cutText, cutTextStart, escapeDiscord, escapeHtml, escapeSlack, fitRendered, oneLine, telegramLength, utf8Bytes } from '../../../agent/domain/text/chatText';

describe('chat text', () => {
  it('cuts never between the halves of a surrogate pair', () => {
    const text = '𝔘𝔫𝔦𝔠𝔬𝔡𝔢';
    for (let max = 0; max <= text.length; max++) {
      for (const cut of [cutText(text, max), cutTextStart(text, max)]) {
        expect(cut.length).toBeLessThanOrEqual(max);
        expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
      }
    }
    expect(cutText('abcdef', 4)).toBe('abc…');
    expect(cutTextStart('abcdef', 4)).toBe('…def');
  });

  it('cuts in the raw text, so an escape is whole or absent', () => {
    for (let max = 0; max < 40; max++) {
      const fitted = fitRendered('a&b<c>d&&&&&&', escapeSlack, max);
      expect(fitted.length).toBeLessThanOrEqual(max);
      expect(fitted).not.toMatch(/&(?!amp;|lt;|gt;)/);
    }
    // "…" is 3 bytes of UTF-8.
    expect(fitRendered('ab&&&&', (t) => t, 5, utf8Bytes)).toBe('ab…');
  });

  it('finds the largest piece that fits, whatever the answer', () => {
    for (let max = 0; max < 70; max++) for (let answer = 0; answer <= max; answer++) expect(largestFitting(max, (n) => n <= answer)).toBe(answer);
  });

  it('escapes each service\'s markup', () => {
    expect(escapeSlack('<!channel> & <https://x|y>')).toBe('&lt;!channel&gt; &amp; &lt;https://x|y&gt;');
    expect(escapeHtml('<b a="1">&')).toBe('&lt;b a=&quot;1&quot;&gt;&amp;');
    expect(escapeDiscord('*b* _i_ ~s~ `c` ||p|| [l](https://e) <@1> @everyone \\')).toBe(
      '\\*b\\* \\_i\\_ \\~s\\~ \\`c\\` \\|\\|p\\|\\| \\[l\\]\\(https\\://e\\) \\<\\@1\\> \\@everyone \\\\',
    );
    expect(escapeDiscord('# head\n> quote\n- item\n1. one')).toBe('\\# head\n\\> quote\n\\- item\n1\\. one');
    expect(oneLine('a\r\nBcc: x\u0085y')).toBe('a Bcc: x y');
    expect(telegramLength('<b>&lt;x&gt;</b> <a href="https://e">Open</a>')).toBe('<x> Open'.length);
  });
});
