// @hey-api/openapi-ts settings for sdk/generate (input and output are given on its command line).
// The client's own symbols (`client`, `createClient`, `createConfig`) are exported from the
// entry file, src/client/index.ts, so `client.setConfig(...)` needs no deep import.
export default {
  plugins: [
    { name: '@hey-api/client-fetch', includeInEntry: true },
    '@hey-api/typescript',
    '@hey-api/sdk',
  ],
};
