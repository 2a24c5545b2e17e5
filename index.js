// The desktop app's entry. Electron, given this folder (`npm start`) or the installers' app.asar,
// loads index.js because package.json names no `main`: npm packs whatever `main` names, and the
// npm package, the headless agent, has no use for the Electron-only bundle.
require('./dist/main/main.cjs');
