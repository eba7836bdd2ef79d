import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { routes } from './app/routes.tsx';
import './index.css';

const router = createBrowserRouter(routes);
const app = (
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>
);
const root = document.getElementById('root')!;
// Public pages arrive prerendered (scripts/prerender.ts) and are hydrated; app routes start from the empty shell.
if (root.firstElementChild) hydrateRoot(root, app);
else createRoot(root).render(app);
