// The app's workflow screens, loaded as one chunk when a logged-in user opens any of them.
export { DashboardPage } from '../dashboard/DashboardPage.tsx';
export { MapColumnsPage } from '../mapping/MapColumnsPage.tsx';
export { VerifyDataPage } from '../validation/VerifyDataPage.tsx';
export { SubmitPage } from '../submit/SubmitPage.tsx';
export { PixelAccountsPage } from '../pixel-accounts/PixelAccountsPage.tsx';
