import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Navigate, Outlet, type RouteObject } from 'react-router';
import { AdaptiveLayout, AppLayout } from './layouts/AppLayout.tsx';
import { PublicLayout } from './layouts/PublicLayout.tsx';
import { GuestOnly, RequireUnverified, RequireVerified } from './guards.tsx';
import { NotFoundPage } from './NotFoundPage.tsx';
import { RouteChange } from './RouteChange.tsx';
import { Providers } from './Providers.tsx';
import { ToWorkspace, WorkspaceScope } from './WorkspaceRoutes.tsx';
import { Spinner } from '../components/ui/Spinner.tsx';
import { LandingPage } from '../marketing/LandingPage.tsx';
import { IndustryPage } from '../marketing/IndustryPage.tsx';
import { INDUSTRY_PAGES } from '../marketing/industry-copy.ts';
import { AboutPage, PrivacyPage, ServicesPage, TermsPage } from '../marketing/InfoPages.tsx';
import { PricingPage } from '../marketing/PricingPage.tsx';
import { ContactPage } from '../marketing/forms/ContactPage.tsx';
import { AutomationPage } from '../marketing/forms/AutomationPage.tsx';
import { AuditPage } from '../marketing/forms/AuditPage.tsx';
import { AuditResultsPage } from '../marketing/forms/AuditResultsPage.tsx';
import { LeadAiPage } from '../marketing/forms/LeadAiPage.tsx';

/** App screens load on demand: public pages never download the app's code. */
function page(load: () => Promise<Record<string, ComponentType>>, name: string) {
  const Component = lazy(async () => ({ default: (await load())[name]! }));
  return (
    <Suspense fallback={<Spinner />}>
      <Component />
    </Suspense>
  );
}
const account = () => import('../features/account/index.ts');
const workflow = () => import('../features/workflow/screens.ts');
const summary = () => import('../features/summary/SummaryPage.tsx');
const sources = () => import('../features/sources/index.ts');
const activity = () => import('../features/activity/index.ts');
// Scalar (the API reference's renderer) is large: its own chunk, loaded by that page alone.
const apiDocs = () => import('../features/api-keys/index.ts');

function Root() {
  return (
    <Providers>
      <RouteChange />
      <Outlet />
    </Providers>
  );
}

/** The app's screens (contracts' APP_SCREENS names their first segments). */
const APP_SCREENS: { path: string; element: ReactNode }[] = [
  { path: '/settings', element: page(account, 'SettingsPage') },
  { path: '/settings/activity', element: page(activity, 'ActivityPage') },
  { path: '/settings/api-docs', element: page(apiDocs, 'ApiDocsPage') },
  { path: '/dashboard', element: page(workflow, 'DashboardPage') },
  { path: '/map-columns', element: page(workflow, 'MapColumnsPage') },
  { path: '/verify-data', element: page(workflow, 'VerifyDataPage') },
  { path: '/submit', element: page(workflow, 'SubmitPage') },
  { path: '/pixel-accounts', element: page(workflow, 'PixelAccountsPage') },
  { path: '/summary', element: page(summary, 'SummaryPage') },
  { path: '/sources', element: page(sources, 'SourcesPage') },
  { path: '/sources/new', element: page(sources, 'SourceWizard') },
  { path: '/sources/:id', element: page(sources, 'SourcePage') },
  { path: '/sources/:id/edit', element: page(sources, 'SourceWizard') },
];

const guest = (element: ReactNode) => <GuestOnly>{element}</GuestOnly>;
const verified = (element: ReactNode) => <RequireVerified>{element}</RequireVerified>;

/** The route table of spec §2. */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { path: '/', element: <LandingPage /> },
          ...Object.values(INDUSTRY_PAGES).map((copy) => ({
            path: copy.path,
            element: <IndustryPage copy={copy} />,
          })),
          { path: '/about-us', element: <AboutPage /> },
          { path: '/services', element: <ServicesPage /> },
          { path: '/pricing', element: <PricingPage /> },
          { path: '/terms-of-service', element: <TermsPage /> },
          { path: '/privacy-policy', element: <PrivacyPage /> },
          { path: '/automation', element: <AutomationPage /> },
          { path: '/audit', element: <AuditPage /> },
          { path: '/audit-results', element: <AuditResultsPage /> },
          { path: '/signup', element: guest(page(account, 'SignupPage')) },
          { path: '/login', element: guest(page(account, 'LoginPage')) },
          { path: '/forgot-password', element: guest(page(account, 'ForgotPasswordPage')) },
          { path: '/reset-password', element: guest(page(account, 'ResetPasswordPage')) },
          { path: '/verify', element: page(account, 'VerifyEmailPage') },
        ],
      },
      {
        element: <AppLayout />,
        children: [
          {
            path: '/verify-notice',
            element: <RequireUnverified>{page(account, 'VerifyNoticePage')}</RequireUnverified>,
          },
          { path: '/invite', element: verified(page(account, 'InvitePage')) },
          // Decision 0104: the app's screens live under /w/<slug>; the old addresses open the same screen there.
          ...APP_SCREENS.map(({ path }) => ({ path, element: verified(<ToWorkspace />) })),
          {
            path: '/w/:slug',
            element: verified(<WorkspaceScope />),
            children: [
              { index: true, element: <Navigate to="dashboard" replace /> },
              ...APP_SCREENS.map(({ path, element }) => ({ path: path.slice(1), element })),
              { path: '*', element: <NotFoundPage /> },
            ],
          },
        ],
      },
      {
        element: <AdaptiveLayout />,
        children: [
          { path: '/contact', element: <ContactPage /> },
          { path: '/lead-ai', element: <LeadAiPage /> },
          // A signed-in user who follows a dead link stays in the app's frame, with the way back to work.
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
