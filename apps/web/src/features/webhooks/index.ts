// The webhooks screen, loaded as one chunk.
export { WebhooksPage } from './WebhooksPage.tsx';
