// `npm start`: builds the web app when it is missing or its sources changed since it was built, then serves API, web app and job worker in one
// process at http://localhost:3000 (embedded database under DATA_DIR unless DATABASE_URL is set).
import { spawnSync, spawn } from 'node:child_process';
import { webBuildStale } from './web-build-stamp.mjs';

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

if (webBuildStale()) {
  // `npm run build` stamps the build with the hash of its inputs (scripts/web-build-stamp.mjs).
  console.log('Building the web app (first start, or its sources changed)...');
  run('npm', ['run', 'build', '--silent']);
}

const server = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
  stdio: 'inherit',
  env: process.env,
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code) => process.exit(code ?? 0));
