// A job that spools pulses as fast as it can: `node --import tsx spoolWriter.ts DATA_DIR NAME COUNT`.
import { Spool } from '../../agent/client/spool';

const [dataDir, name, count] = process.argv.slice(2);
const spool = new Spool(dataDir);
for (let i = 0; i < Number(count); i++) spool.append('http://127.0.0.1:1', { token: `${name}-${i}`, signal: 'success', body: 'x'.repeat(i * 37) }, Date.now());
