import { useEffect, useRef, useState } from 'react';
import { createApiReference } from '@scalar/api-reference';
import '@scalar/api-reference/style.css';
import { usePageMeta } from '../../lib/page-meta.ts';

/**
 * The API reference (issue 32): Scalar renders /api/v1/openapi.json, the document generated from the routes'
 * contracts. This module is its own lazy chunk: no other page loads Scalar. Its fonts are the app's (no CDN).
 */
export function ApiDocsPage() {
  usePageMeta({ title: 'API reference | Backsignal' });
  const el = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!el.current) return;
    try {
      const app = createApiReference(el.current, {
        url: '/api/v1/openapi.json',
        withDefaultFonts: false,
        hideClientButton: true,
        hideDarkModeToggle: true,
        forceDarkModeState: 'light',
        telemetry: false,
        // Scalar's AI agent would send the document to Scalar's service: nothing leaves the app.
        agent: { disabled: true },
        mcp: { disabled: true },
        showDeveloperTools: 'never',
        // Scalar's muted grey is under WCAG AA on white (the search placeholder, the client tabs): a darker one.
        customCss: '.light-mode { --scalar-color-3: #52525b; }',
      });
      return () => app.destroy();
    } catch {
      setFailed(true);
    }
  }, []);
  return (
    <section className="-mx-4 sm:mx-0">
      <h1 className="sr-only">API reference</h1>
      {failed && (
        <p role="alert" className="px-4 text-sm text-red-700">
          The reference could not be shown. The document itself is at{' '}
          <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.
        </p>
      )}
      <div ref={el} />
    </section>
  );
}
