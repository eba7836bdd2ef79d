import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { publicOrigin, webBuildStale, writeStamp } from '../../../scripts/web-build-stamp.mjs';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A checkout with a built web app, as `npm run build` leaves it. */
function builtCheckout(env: Record<string, string>) {
  root = mkdtempSync(join(tmpdir(), 'bs-stamp-'));
  mkdirSync(join(root, 'apps/web/src'), { recursive: true });
  mkdirSync(join(root, 'apps/web/dist'), { recursive: true });
  writeFileSync(join(root, 'apps/web/src/App.tsx'), 'export const v = 1;\n');
  writeFileSync(join(root, 'apps/web/dist/index.html'), '<html></html>');
  writeStamp(env, root);
}

describe('npm start rebuilds the web app', () => {
  it('not when nothing changed', () => {
    builtCheckout({});
    expect(webBuildStale({}, root)).toBe(false);
  });

  it('when a web source changed after the build (a git pull), not only when the build is missing', () => {
    builtCheckout({});
    writeFileSync(join(root, 'apps/web/src/App.tsx'), 'export const v = 2;\n');
    expect(webBuildStale({}, root)).toBe(true);
  });

  it('when a build predates the stamp, or is missing', () => {
    builtCheckout({});
    rmSync(join(root, 'apps/web/dist/.build-hash'));
    expect(webBuildStale({}, root)).toBe(true);
    rmSync(join(root, 'apps/web/dist'), { recursive: true });
    expect(webBuildStale({}, root)).toBe(true);
  });

  it('when PORT changed, since the prerendered canonical links carry it', () => {
    builtCheckout({ PORT: '3000' });
    expect(webBuildStale({ PORT: '4310' }, root)).toBe(true);
    expect(publicOrigin({ PORT: '4310' })).toBe('http://localhost:4310');
    expect(publicOrigin({ PORT: '4310', APP_URL: 'https://app.example.com/' })).toBe(
      'https://app.example.com',
    );
  });
});
