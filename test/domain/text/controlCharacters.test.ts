import { describe, expect, it } from 'vitest';
import { controlCharacterIn, terminalText, xmlText } from '../../../agent/domain/text/controlCharacters';
import { badgeSvg, monitorBadge } from '../../../agent/domain/formats/badge';
import { xmlProblem } from '../../helpers/xml';

/* What a name may hold, what a terminal is shown, and what an SVG or a property list carries. */

const EVIL = 'a\u0000b\u0007c\u001b]52;c;aGk=\u0007d\u007fe\u0085f\u009bg\u202eh\u2066i\u2028j\u2029k\ud800l\udc00m\t\n\r';

describe('control characters', () => {
  it('finds the first one and names it', () => {
    expect(controlCharacterIn('nightly backup é 備份 🗄️')).toBeUndefined();
    expect(controlCharacterIn('x\u001b[2J')).toBe('ESC (U+001B)');
    expect(controlCharacterIn('x\u0085')).toBe('U+0085');
    expect(controlCharacterIn('x\udc00')).toBe('a lone surrogate (U+DC00)');
    expect(controlCharacterIn('x\ud83d')).toBe('a lone surrogate (U+D83D)');
    expect(controlCharacterIn('x\u202e')).toBe('U+202E');
    expect(controlCharacterIn('x\n')).toBe('a line break (U+000A)');
  });

  it('writes them out for a terminal, keeping line breaks and tabs unless one line is asked for', () => {
    expect(terminalText(EVIL)).toBe(
      'a\\u0000b\\u0007c\\u001b]52;c;aGk=\\u0007d\\u007fe\\u0085f\\u009bg\\u202eh\\u2066i\\u2028j\\u2029k\\ud800l\\udc00m\t\n\\u000d',
    );
    expect(terminalText('tab\tline\n', { oneLine: true })).toBe('tab\\u0009line\\u000a');
    expect(terminalText('備份 🗄️ é')).toBe('備份 🗄️ é');
  });

  it('written out inside a JSON string, they read back as the same characters', () => {
    const json = JSON.stringify({ name: EVIL });
    expect(JSON.parse(terminalText(json))).toEqual({ name: EVIL });
  });

  it('makes text for XML that is always well-formed and never markup', () => {
    const document = `<a b="${xmlText(EVIL + '<&>"\'\ufffe')}">${xmlText(EVIL)}</a>`;
    expect(xmlProblem(document)).toBeNull();
  });

  it('a badge of any name is well-formed XML', () => {
    const svg = badgeSvg(monitorBadge(EVIL, 'failed'));
    expect(xmlProblem(svg)).toBeNull();
    expect(svg).toContain('c\\u001b]52;c;aGk=');
    expect(xmlProblem(badgeSvg(monitorBadge(`${'x'.repeat(58)}\u001b\u0000`, 'monitoring')))).toBeNull();
  });
});
