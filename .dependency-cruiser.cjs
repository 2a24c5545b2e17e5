/*
 * Cronbeat's layers, checked by `npm test` (npm run lint:layers). The picture and the reasons
 * are in docs/development.md; each rule below is one arrow that must not exist. A violation names
 * the rule, the file and the import: move the shared thing down a layer (domain for pure rules,
 * contract for wire types and schemas), never widen a rule.
 */

/** The Electron package however it resolves (node_modules may be a symlink), or its bare name when it does not. */
const ELECTRON = '(^electron$|(^|/)node_modules/electron/)';

/** Everything under agent/ except the given folders, as a path pattern. */
const agentExcept = (...allowed) => `^agent/(?!(${allowed.join('|')})/)`;

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'Files never import each other in a loop: one of them holds what both need, or a third file does.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-imports-nothing-of-ours',
      comment: 'agent/domain/ is pure rules: it imports no other folder of Cronbeat.',
      severity: 'error',
      from: { path: '^agent/domain/' },
      to: { path: ['^agent/(?!domain/)', '^(main|renderer)/'] },
    },
    {
      name: 'domain-does-no-io',
      comment: 'agent/domain/ reads no file, socket, process or clock; `now` is a parameter (types alone are fine).',
      severity: 'error',
      from: { path: '^agent/domain/' },
      to: {
        dependencyTypesNot: ['type-only'],
        path: [
          '^(node:)?(fs|fs/promises|net|tls|http|https|http2|dgram|dns|child_process|cluster|worker_threads|os|process|readline)$',
          '(^|/)node_modules/(better-sqlite3|node-notifier|nodemailer|koa|@koa/router|pino|electron)/',
        ],
      },
    },
    {
      name: 'contract-imports-only-domain',
      comment: 'agent/contract/ (wire types, schemas, statuses) builds on agent/domain/ alone.',
      severity: 'error',
      from: { path: '^agent/contract/' },
      to: { path: [agentExcept('contract', 'domain'), '^(main|renderer)/'] },
    },
    {
      name: 'data-folder-imports-only-domain',
      comment: 'agent/dataFolder/ (where the data folder is, keeping it private) is shared by the store, the CLI and the job side, so it builds on nothing else of ours.',
      severity: 'error',
      from: { path: '^agent/dataFolder/' },
      to: { path: [agentExcept('dataFolder', 'domain'), '^(main|renderer)/'] },
    },
    {
      name: 'db-not-api-engine-cli',
      comment: 'Storage serves the layers above it and knows none of them.',
      severity: 'error',
      from: { path: '^agent/db/' },
      to: { path: '^agent/(api|engine|cli|client)/' },
    },
    {
      name: 'engine-not-api-cli',
      comment: 'The engine (loop, notifier, delivery, certificates) builds from contract, domain and db, never from the HTTP layer.',
      severity: 'error',
      from: { path: '^agent/engine/' },
      to: { path: '^agent/(api|cli|client)/' },
    },
    {
      name: 'api-not-cli',
      comment: 'The API never reaches into the CLI; what both need lives in domain (or contract).',
      severity: 'error',
      from: { path: '^agent/api/' },
      to: { path: '^agent/(cli|client)/' },
    },
    {
      name: 'client-not-db-engine-api',
      comment: 'agent/client/ runs in a job\'s process and talks to an agent over HTTP: no storage, engine or API code.',
      severity: 'error',
      from: { path: '^agent/client/' },
      to: { path: '^agent/(db|engine|api|cli)/' },
    },
    {
      name: 'agent-not-electron',
      comment: 'agent/ is the headless core: the same with or without the desktop shell.',
      severity: 'error',
      from: { path: '^agent/' },
      to: { path: [ELECTRON, '^main/', '^renderer/'] },
    },
    {
      name: 'renderer-only-contract-domain',
      comment: 'The dashboard runs in a browser: of the agent it imports only the contract and pure domain rules.',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: [agentExcept('contract', 'domain'), '^main/', ELECTRON] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|test-results)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    cache: false,
  },
};
