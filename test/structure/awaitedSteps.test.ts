import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * The loop's step runs in slices and a pulse is stored by the pulse batch, so both end later than
 * the call: a test that calls them without waiting looks at the database before they are done.
 * With a few monitors it passes anyway (the step fit its first slice), until a slower machine or
 * a bigger test makes it wrong. So a call to one of them whose promise nobody takes fails here.
 */

const ROOT = resolve(__dirname, '../..');
/** The test helpers that run the loop's step or the pulse batch (test/engine/engineFixture.ts, test/helpers/loopStep.ts). */
const ASYNC_HELPERS = new Set(['step', 'stepAt', 'pulse', 'failMonitor']);

/** Calls of ASYNC_HELPERS made as statements of their own: their promise is dropped. */
function droppedCalls(path: string, text: string): string[] {
  if (!/\b(?:step|stepAt|pulse|failMonitor)\(/.test(text)) return [];
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isExpressionStatement(node) && ts.isCallExpression(node.expression)) {
      const callee = node.expression.expression;
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
      // The engine's own step takes a callback (`done`) instead: nothing to await.
      const callback = node.expression.arguments.some((arg) => ts.isArrowFunction(arg) || ts.isFunctionExpression(arg));
      if (ASYNC_HELPERS.has(name) && !callback) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        found.push(`${path}:${line + 1}: ${node.getText().slice(0, 80)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the loop\'s step and pulses in tests', () => {
  it('are awaited (or their promise taken) wherever a test calls them', () => {
    const files = readdirSync(join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts') && !name.startsWith('bench/'))
      .map((name) => join('test', name));
    expect(files.flatMap((path) => droppedCalls(path, readFileSync(join(ROOT, path), 'utf8')))).toEqual([]);
  });

  it('finds a dropped call', () => {
    const text = `
      it('fails', async () => {
        fixture.pulse(token, now);
        await fixture.step(now);
        stepAt(failer, now);
        const sent = fixture.pulse(token, now);
        await sent;
      });`;
    expect(droppedCalls('test/x.test.ts', text)).toEqual(['test/x.test.ts:3: fixture.pulse(token, now);', 'test/x.test.ts:5: stepAt(failer, now);']);
  });
});
