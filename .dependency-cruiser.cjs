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

/** A forbidden arrow: files under `from` never import what `to` matches. */
const arrow = (name, comment, from, to) => ({ name, comment, severity: 'error', from: { path: from }, to: { path: to } });

/*
 * Inside a layer, files are grouped by subject (docs/development.md, "The folders"), and subjects
 * build on each other one way: a subject folder may import the folders listed before it in its
 * layer, never one listed after it. A rule two subjects need goes down to the lower one; what
 * joins subjects (the loop, the app, the pulse sender) sits at the layer's root, above them all.
 * Types alone may cross either way: an alert's data names a certificate's status or a cron
 * line's change, which is no code of theirs run.
 */
const SUBJECTS = {
  domain: ['text', 'net', 'time', 'schedules', 'monitors', 'maintenance', 'certificates', 'alerts', 'servers', 'channels', 'reports', 'access', 'formats', 'agentHealth'],
  api: ['http', 'present', 'pulses', 'routes'],
  engine: ['popups', 'monitors', 'servers', 'certificates', 'delivery', 'reports'],
  client: ['connection', 'pulses', 'spool', 'follow'],
};

const subjectArrows = Object.entries(SUBJECTS).flatMap(([layer, order]) =>
  order.slice(0, -1).map((subject, index) => ({
    name: `${layer}-${subject}-builds-on-earlier-subjects`,
    comment: `agent/${layer}/${subject}/ runs only the subjects before it in its layer (${order.join(' < ')}): what a later subject and this one both need belongs to this one or an earlier one.`,
    severity: 'error',
    from: { path: `^agent/${layer}/${subject}/` },
    to: { path: `^agent/${layer}/(${order.slice(index + 1).join('|')})/`, dependencyTypesNot: ['type-only'] },
  })),
);

module.exports = {
  forbidden: [
    ...subjectArrows,
    {
      name: 'no-cycles',
      comment: 'Files never import each other in a loop: one of them holds what both need, or a third file does.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    arrow('domain-imports-nothing-of-ours', 'agent/domain/ is pure rules: it imports no other folder of Cronbeat.', '^agent/domain/', [agentExcept('domain'), '^(main|renderer)/']),
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
    arrow('contract-imports-only-domain', 'agent/contract/ (wire types, schemas, statuses) builds on agent/domain/ alone.', '^agent/contract/', [agentExcept('contract', 'domain'), '^(main|renderer)/']),
    {
      name: 'contract-loads-in-the-browser',
      comment: 'The dashboard checks its forms with agent/contract/ (renderer/src/lib/formRules.ts): it imports no Node built-in (node:net, node:url…).',
      severity: 'error',
      from: { path: '^agent/contract/' },
      to: { dependencyTypes: ['core'], dependencyTypesNot: ['type-only'] },
    },
    arrow(
      'data-folder-imports-only-domain',
      'agent/dataFolder/ (where the data folder is, keeping it private) is shared by the store, the CLI and the job side, so it builds on nothing else of ours.',
      '^agent/dataFolder/',
      [agentExcept('dataFolder', 'domain'), '^(main|renderer)/'],
    ),
    arrow('log-imports-only-domain', 'agent/log/ (the logger every layer writes to) builds on agent/domain/ alone (pure rules: what a terminal may be shown).', '^agent/log/', [agentExcept('log', 'domain'), '^(main|renderer)/']),
    arrow('db-not-api-engine-cli', 'Storage serves the layers above it and knows none of them.', '^agent/db/', '^agent/(api|engine|cli|client)/'),
    arrow(
      'engine-not-api-cli',
      'The engine (loop, notifier, delivery, certificates) builds from contract, domain and db, never from the HTTP layer.',
      '^agent/engine/',
      '^agent/(api|cli|client)/',
    ),
    arrow('api-not-cli', 'The API never reaches into the CLI; what both need lives in domain (or contract).', '^agent/api/', '^agent/(cli|client)/'),
    arrow(
      'client-not-db-engine-api',
      "agent/client/ runs in a job's process and talks to an agent over HTTP: no storage, engine or API code.",
      '^agent/client/',
      '^agent/(db|engine|api|cli)/',
    ),
    arrow('agent-not-electron', 'agent/ is the headless core: the same with or without the desktop shell.', '^agent/', [ELECTRON, '^main/', '^renderer/']),
    arrow(
      'renderer-only-contract-domain',
      'The dashboard runs in a browser: of the agent it imports only the contract and pure domain rules.',
      '^renderer/',
      [agentExcept('contract', 'domain'), '^main/', ELECTRON],
    ),
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
