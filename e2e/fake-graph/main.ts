import { startFakeGraph } from './fake-graph.ts';

// `node --import tsx e2e/fake-graph/main.ts`: the fake Graph API for browser journeys and manual runs.
const port = Number(process.env.FAKE_GRAPH_PORT ?? 3199);
const graph = await startFakeGraph({ port, delayMs: Number(process.env.FAKE_GRAPH_DELAY_MS ?? 0) });
console.log(`fake Graph API listening on ${graph.url}`);
const stop = () => void graph.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
