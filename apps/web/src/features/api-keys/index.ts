export { ApiDocsPage } from './ApiDocsPage.tsx';
