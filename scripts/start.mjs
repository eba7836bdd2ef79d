// `npm start`: builds the web app when it is missing or its sources changed since it was built, bundles the API
// (scripts/server-bundle.mjs), then serves API, web app and job worker in one process at http://localhost:3000
// (embedded database under DATA_DIR unless DATABASE_URL is set). `node scripts/start.mjs worker` (`npm run worker`)
// runs the job worker alone instead.
import { spawnSync, spawn } from 'node:child_process';
import { bundleServer } from './server-bundle.mjs';
import { SERVER_NODE_ARGS, serverEnv } from './server-process.mjs';
import { webBuildStale } from './web-build-stamp.mjs';

const entry = process.argv[2] === 'worker' ? 'worker' : 'server';

if (entry === 'server' && webBuildStale()) {
  // `npm run build` stamps the build with the hash of its inputs (scripts/web-build-stamp.mjs).
  console.log('Building the web app (first start, or its sources changed)...');
  const r = spawnSync('npm', ['run', 'build', '--silent'], {
    stdio: 'inherit',
    cwd: new URL('../', import.meta.url),
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const bundles = await bundleServer();
const child = spawn(process.execPath, [...SERVER_NODE_ARGS, bundles[entry]], {
  stdio: 'inherit',
  env: serverEnv(),
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
