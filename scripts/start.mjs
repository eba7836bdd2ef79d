// `npm start`: builds the web app when it is not built yet, then serves API, web app and job worker in one
// process at http://localhost:3000 (embedded database under DATA_DIR unless DATABASE_URL is set).
import { spawnSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

if (!existsSync('apps/web/dist/index.html')) {
  console.log('Building the web app (first start only)...');
  run('npm', ['run', 'build', '--silent']);
}

const server = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
  stdio: 'inherit',
  env: process.env,
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code) => process.exit(code ?? 0));
