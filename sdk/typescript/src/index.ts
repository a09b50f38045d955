// The package's entry point (hand-written; sdk/generate rewrites only src/client/). Everything
// the generated client exports — the operations, their types and the default `client`, so
// `client.setConfig({ baseUrl, auth })` needs no deep import — and the fetch client's
// constructors, for a second client with its own base URL or token.
export * from './client';
export { createClient, createConfig } from './client/client';
export type { Client, Config } from './client/client';
