// The sources screens, loaded as one chunk.
export { SourcesPage } from './SourcesPage.tsx';
export { SourceWizard } from './SourceWizard.tsx';
export { SourcePage } from './SourcePage.tsx';
