/** The build steps `npm start` may need, each with the sources that make its output stale. */
export interface BuildStep {
  /** The npm script that builds it. */
  script: string;
  output: string;
  /** Folders and files (relative to the project root) whose changes call for a rebuild. */
  sources: string[];
  /** Only the desktop app needs it. */
  desktopOnly: boolean;
}

export const BUILD_STEPS: BuildStep[] = [
  { script: 'build:agent', output: 'dist/cronbeat.cjs', sources: ['agent', 'package.json'], desktopOnly: false },
  // The dashboard bundles the agent's contract and rules too (its forms check with the API's own schemas).
  { script: 'build:renderer', output: 'dist/renderer/index.html', sources: ['renderer', 'agent/contract', 'agent/domain', 'package.json'], desktopOnly: false },
  {
    script: 'build:main',
    output: 'dist/main/main.cjs',
    sources: ['main', 'agent', 'renderer/src/bridge.ts', 'package.json'],
    desktopOnly: true,
  },
];
