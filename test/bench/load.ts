import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import type { LoadJob, LoadResult } from './loadWorker';

const WORKER = resolve(__dirname, 'loadWorker.ts');

/** Runs one load job in a child process (autocannon) and resolves with its result. */
export function runLoad(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolveLoad, reject) => {
    execFile(process.execPath, ['--import', 'tsx', WORKER, JSON.stringify(job)], { maxBuffer: 1 << 20, timeout: 300_000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`load worker failed: ${error.message} ${stderr}`));
      resolveLoad(JSON.parse(stdout.trim().split('\n').pop()!) as LoadResult);
    });
  });
}
