import { spawnSync } from 'node:child_process';
import { XMLValidator } from 'fast-xml-parser';

/** XML 1.0's Char production (https://www.w3.org/TR/xml/#charsets): anything else makes a document not well-formed. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\ud800-\udfff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const hasPython = spawnSync('python3', ['--version']).status === 0;

/**
 * Whether `text` is well-formed XML: fast-xml-parser's check of the markup (which lets control
 * characters through), XML's rule for characters, and, where python3 is there, expat's parser.
 * Returns what is wrong, or null.
 */
export function xmlProblem(text: string): string | null {
  const validated = XMLValidator.validate(text);
  if (validated !== true) return JSON.stringify(validated.err);
  const bad = NOT_XML_CHAR.exec(text);
  if (bad) return `U+${bad[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${bad.index} is no XML character`;
  if (hasPython) {
    const expat = spawnSync('python3', ['-c', 'import sys, xml.parsers.expat as e; e.ParserCreate().Parse(sys.stdin.buffer.read(), True)'], { input: text });
    if (expat.status !== 0) return expat.stderr.toString().trim().split('\n').pop() ?? 'expat refused it';
  }
  return null;
}
