// The activity screen, loaded as one chunk.
export { ActivityPage, ActivityLink } from './ActivityPage.tsx';
