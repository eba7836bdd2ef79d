// Bundles the API's entry points (apps/api/src/server.ts, worker.ts) into plain JavaScript under apps/api/dist/, so
// `npm start` runs Node without a TypeScript loader: tsx's loader thread and transformed-module cache cost the
// serving process ~50 MB of resident memory, idle and at peak (docs/decisions/0093-server-runs-from-a-bundle.md).
// The workspace packages are bundled; every other package stays an import, resolved from node_modules as before.
import { build } from 'esbuild';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const OUT_DIR = `${root}apps/api/dist`;

/**
 * Code that finds files beside itself (migrations, the PGlite worker, the pipeline worker, the web build) does so
 * from `import.meta.url`: in the bundle it keeps meaning the source file, not the bundle.
 */
const sourceUrls = {
  name: 'source-import-meta-url',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@backsignal/') ? undefined : { path: args.path, external: true },
    );
    b.onLoad({ filter: /\.ts$/ }, async (args) => ({
      contents: (await readFile(args.path, 'utf8')).replaceAll(
        'import.meta.url',
        JSON.stringify(pathToFileURL(args.path).href),
      ),
      loader: 'ts',
    }));
  },
};

const ENTRIES = ['server', 'worker'];

/**
 * Builds the bundles (~0.5 s) and answers the path of each entry's: `{ server, worker }`. Each file is written
 * beside its place and renamed into it, so instances started together from one checkout (`npm start` beside
 * `npm run worker`) never load a half-written bundle.
 */
export async function bundleServer() {
  const out = Object.fromEntries(ENTRIES.map((name) => [name, `${OUT_DIR}/${name}.mjs`]));
  await mkdir(OUT_DIR, { recursive: true });
  const built = await Promise.all(
    ENTRIES.map((name) =>
      build({
        entryPoints: [`${root}apps/api/src/${name}.ts`],
        outfile: out[name],
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        sourcemap: 'linked',
        plugins: [sourceUrls],
        logLevel: 'warning',
        write: false,
      }),
    ),
  );
  for (const file of built.flatMap((b) => b.outputFiles)) {
    const temp = `${file.path}.${process.pid}.tmp`;
    await writeFile(temp, file.contents);
    await rename(temp, file.path);
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleServer();
