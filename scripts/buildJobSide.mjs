/*
 * Builds dist/cronbeat.cjs, the job side (`run`, `ping`, `spool`): one self-contained file, as users
 * copy it to servers (docs/development.md, "The two CLI files"). `npm run build:agent` runs it.
 *
 * Node compiles the whole file at every start, and `cronbeat run` wraps every job. V8 pre-parses
 * each function it has not run yet, and most of this file is the packages of a line's schedule
 * (luxon under cron-parser, the zone table, cronstrue), which a run by token never calls. So each of
 * those packages is bundled on its own and kept in the file as a string, which V8 only scans (in about
 * a third of the time it takes to pre-parse as much code), and compiled the first time our code requires it.
 */
import * as esbuild from 'esbuild';

/** The packages only a line's schedule uses: kept as text in the file, compiled on first use. */
const LATE_PACKAGES = ['@vvo/tzdb', 'cron-parser', 'cronstrue'];

const COMMON = {
  bundle: true,
  platform: 'node',
  // Not to run there: so that an old server's Node can parse the file and say it is too old (agent/cli/oldNode.ts).
  target: 'node8',
  format: 'cjs',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  logOverride: { 'empty-import-meta': 'silent' },
  metafile: true,
};

/** One package bundled alone, as CommonJS source: what `require(name)` gives is its module.exports. */
async function bundleAlone(name) {
  const result = await esbuild.build({ ...COMMON, write: false, stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: process.cwd() } });
  return { source: result.outputFiles[0].text, inputs: Object.keys(result.metafile.inputs).filter((input) => input !== '<stdin>') };
}

/**
 * The module that stands for a late package in the bundle: its source as a string literal, compiled
 * by node:vm like a file of its own the first time it is required (stack traces name it after this
 * file, "cronbeat.cjs [cron-parser]"). `require` is this file's, for the Node modules it uses.
 */
function lateModule(name, source) {
  return [
    `var source = ${JSON.stringify(source)};`,
    `var wrapper = require('node:vm').runInThisContext('(function (exports, require, module) {' + source + '\\n})', { filename: __filename + ' [${name}]' });`,
    'wrapper.call(module.exports, module.exports, require, module);',
  ].join('\n');
}

/** Resolves each late package to its text (bundled once per build), and checks nothing is in the file twice. */
function latePackages(bundled) {
  return {
    name: 'late-packages',
    setup(build) {
      const filter = new RegExp(`^(${LATE_PACKAGES.map((name) => name.replace(/[/.]/g, '\\$&')).join('|')})$`);
      build.onResolve({ filter }, ({ path }) => ({ path, namespace: 'late-package' }));
      build.onLoad({ filter: /.*/, namespace: 'late-package' }, async ({ path }) => {
        bundled.set(path, bundled.get(path) ?? bundleAlone(path));
        return { contents: lateModule(path, (await bundled.get(path)).source), loader: 'js' };
      });
    },
  };
}

/**
 * A module both in the file and in a late package (or in two of them) would run twice, each copy
 * with its own state: fail the build rather than ship that.
 */
async function checkDisjoint(mainInputs, bundled) {
  const owner = new Map(mainInputs.filter((input) => !input.startsWith('late-package:')).map((input) => [input, 'the file']));
  for (const [name, done] of bundled) {
    for (const input of (await done).inputs) {
      if (owner.has(input)) throw new Error(`${input} is both in ${owner.get(input)} and in the late package ${name}: add its importer to LATE_PACKAGES, or take ${name} out`);
      owner.set(input, name);
    }
  }
}

const bundled = new Map();
const result = await esbuild.build({
  ...COMMON,
  entryPoints: ['agent/cli/main.ts'],
  banner: { js: '#!/usr/bin/env node' },
  outfile: 'dist/cronbeat.cjs',
  plugins: [latePackages(bundled)],
});
await checkDisjoint(Object.keys(result.metafile.inputs), bundled);
