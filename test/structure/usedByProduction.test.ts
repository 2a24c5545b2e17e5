import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * A function the agent exports for tests alone is a road production does not take: tests that
 * drive it pass while what runs goes untested (the loop's tests once failed monitors through a
 * step of their own, in one go, while the loop failed them in slices). So every function, class
 * and constant exported from agent/, and every method of what agent/engine's exported functions
 * and classes hand out (the loop's step, the pulse batch's record), must be used by the code that
 * ships: agent/, main/ or the dashboard. Tests drive those roads, not roads of their own.
 *
 * "Used" is read from the syntax, by name: an identifier with that name anywhere in shipped code
 * outside its own declaration. Names that are common words may pass by another's use; a test-only
 * road under a name of its own does not.
 */

const ROOT = resolve(__dirname, '../..');
const SHIPPED = ['agent', 'main', 'renderer/src'];
/** The folders whose handed-out methods are checked too. */
const METHODS_CHECKED = ['agent/engine/'];

/** Exported but not used by shipped code, each for its reason. */
const ALLOWED: Record<string, string> = {};

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.d.ts'))
    .map((name) => join(folder, name));
}

interface Declared {
  /** `file: name` for an export, `file: Owner.name` for a method. */
  label: string;
  name: string;
  /** The declaration's own name node, which is not a use. */
  node: ts.Node;
}

const isExported = (node: ts.Node) =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The methods and properties of the object literals a function returns (its own returns, not nested functions'). */
function handedOut(body: ts.Node | undefined): ts.ObjectLiteralExpression[] {
  const found: ts.ObjectLiteralExpression[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && node !== body) return;
    if (ts.isReturnStatement(node) && node.expression && ts.isObjectLiteralExpression(node.expression)) found.push(node.expression);
    ts.forEachChild(node, visit);
  };
  if (body && ts.isObjectLiteralExpression(body)) return [body];
  if (body) ts.forEachChild(body, visit);
  return found;
}

function declarations(file: string, source: ts.SourceFile): Declared[] {
  const found: Declared[] = [];
  const checkMethods = METHODS_CHECKED.some((folder) => file.startsWith(folder));
  const members = (owner: string, literal: ts.ObjectLiteralExpression) => {
    for (const property of literal.properties) {
      if ((ts.isMethodDeclaration(property) || ts.isPropertyAssignment(property) || ts.isShorthandPropertyAssignment(property)) && ts.isIdentifier(property.name)) {
        found.push({ label: `${file}: ${owner}().${property.name.text}`, name: property.name.text, node: property.name });
      }
    }
  };
  for (const statement of source.statements) {
    if (!isExported(statement)) continue;
    if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) {
      const name = statement.name.text;
      found.push({ label: `${file}: ${name}`, name, node: statement.name });
      if (!checkMethods) continue;
      if (ts.isFunctionDeclaration(statement)) for (const literal of handedOut(statement.body)) members(name, literal);
      else {
        for (const member of statement.members) {
          const modifiers = ts.canHaveModifiers(member) ? (ts.getModifiers(member) ?? []) : [];
          const hidden = modifiers.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword);
          if (ts.isMethodDeclaration(member) && ts.isIdentifier(member.name) && !hidden) {
            found.push({ label: `${file}: ${name}.${member.name.text}`, name: member.name.text, node: member.name });
          }
        }
      }
    }
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (!ts.isIdentifier(declaration.name)) continue;
        const name = declaration.name.text;
        found.push({ label: `${file}: ${name}`, name, node: declaration.name });
        const init = declaration.initializer;
        if (checkMethods && init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) {
          for (const literal of handedOut(init.body)) members(name, literal);
        }
      }
    }
  }
  return found;
}

/** Every identifier of shipped code (and the property names it reads), with the nodes, so a declaration's own name is left out. */
function identifierUses(sources: ts.SourceFile[]): Map<string, ts.Node[]> {
  const uses = new Map<string, ts.Node[]>();
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
      const list = uses.get(node.text) ?? [];
      list.push(node);
      uses.set(node.text, list);
    }
    ts.forEachChild(node, visit);
  };
  for (const source of sources) visit(source);
  return uses;
}

interface Source {
  /** The path from the repository's root. */
  path: string;
  text: string;
}

/** What agent/ declares in `sources` (exports, and agent/engine's handed-out methods) that no shipped source uses. */
function unusedIn(sources: Source[]): string[] {
  const parsed = sources.map(({ path, text }) =>
    ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS),
  );
  const uses = identifierUses(parsed);
  const unused: string[] = [];
  parsed.forEach((source, index) => {
    const { path } = sources[index]!;
    if (!path.startsWith('agent/')) return;
    for (const declared of declarations(path, source)) {
      if (!(uses.get(declared.name) ?? []).some((node) => node !== declared.node)) unused.push(declared.label);
    }
  });
  return unused;
}

const shipped = (): Source[] => SHIPPED.flatMap(sourceFiles).map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));

describe('what agent/ exports', () => {
  const unused = unusedIn(shipped());

  it('is all used by shipped code: no function, constant or engine method for tests alone', () => {
    expect(unused.filter((label) => !(label in ALLOWED))).toEqual([]);
  });

  it('keeps no exception that has become needless', () => {
    expect(Object.keys(ALLOWED).filter((label) => !unused.includes(label))).toEqual([]);
  });

  it('finds the roads it is there for', () => {
    const engine = `
      export const STEP_BATCH = 500;
      export function createFailer() {
        const failSome = () => true;
        return {
          step() { return failSome(); },
          failOverdue: () => failSome(),
        };
      }
      export function recordPulse() {}
      export class Recorder { record() {} forTests() {} private inner() {} }`;
    const agent = 'import { createFailer, Recorder } from "./engine/failer"; createFailer().step(); new Recorder().record();';
    const test = 'import { createFailer, recordPulse, STEP_BATCH } from "../agent/engine/failer"; createFailer().failOverdue(); recordPulse(); STEP_BATCH;';
    expect(
      unusedIn([
        { path: 'agent/engine/failer.ts', text: engine },
        { path: 'agent/agent.ts', text: agent },
      ]),
    ).toEqual([
      'agent/engine/failer.ts: STEP_BATCH',
      'agent/engine/failer.ts: createFailer().failOverdue',
      'agent/engine/failer.ts: recordPulse',
      'agent/engine/failer.ts: Recorder.forTests',
    ]);
    // Tests are not shipped: their use counts for nothing (they are not among the sources read).
    expect(test).toContain('failOverdue');
  });
});
