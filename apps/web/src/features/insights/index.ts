// The Insights screen and its client report, loaded as one chunk (with d3-scale and d3-shape: decision 0110).
export { InsightsPage } from './InsightsPage.tsx';
export { InsightsReport } from './InsightsReport.tsx';
