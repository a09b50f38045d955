// The official MCP TypeScript SDK's OAuth client (@modelcontextprotocol/sdk, client/auth.js)
// against the journal, with nothing pasted into the client: the first connect gets the 401,
// discovers the protected resource and the authorization server, registers (RFC 7591) and
// sends the person to the authorization URL; the person signs in with their API key on the
// journal's sign-in form and allows on the consent page (played here over HTTP); the client
// finishes with the code (PKCE), connects again and calls tools.
//
// Usage: node oauth_client.mjs <mcp url> <the person's api key> <client name>
// Prints one JSON line; exits non-zero when anything is off.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";

const [url, key, name] = process.argv.slice(2);
const base = new URL(url).origin;
const redirect = "http://127.0.0.1:9/callback";
const form = { "content-type": "application/x-www-form-urlencoded" };

function check(ok, message) {
  if (!ok) throw new Error(message);
}

function cookie(response, name) {
  const found = response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  check(found, `no ${name} cookie (${response.status})`);
  return found.split(";")[0];
}

function unescape(text) {
  return text
    .replaceAll("&#x2f;", "/").replaceAll("&#x27;", "'").replaceAll("&quot;", '"')
    .replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
}

function hidden(page, after = "") {
  const start = after ? page.indexOf(after) : 0;
  check(start >= 0, `${after} not on the page`);
  const re = /<input type="hidden" name="([^"]+)" value="([^"]*)">/g;
  return [...page.slice(start).matchAll(re)].map((m) => [m[1], unescape(m[2])]);
}

let redirectedTo;

/** What the person does with the authorization URL in their browser. */
async function playThePerson(authorizationUrl) {
  const html = { accept: "text/html" };
  const first = await fetch(authorizationUrl, { redirect: "manual", headers: html });
  check(first.status === 303, `not signed in: to the sign-in form (${first.status})`);
  const signIn = await fetch(new URL(first.headers.get("location"), base), { redirect: "manual", headers: html });
  const fields = hidden(await signIn.text());
  fields.push(["key", key]);
  const signed = await fetch(`${base}/journal/sign-in`, {
    method: "POST", redirect: "manual",
    headers: { ...form, cookie: cookie(signIn, "n8v_pre") },
    body: new URLSearchParams(fields).toString(),
  });
  check(signed.status === 303, `sign-in: ${signed.status}`);
  const session = cookie(signed, "n8v_journal");
  const consent = await fetch(new URL(signed.headers.get("location"), base), {
    redirect: "manual", headers: { ...html, cookie: session },
  });
  const page = await consent.text();
  check(consent.status === 200 && page.includes(name), "the consent page names the client");
  const decision = hidden(page, 'action="/oauth/authorize"');
  decision.push(["decision", "approve"]);
  const decided = await fetch(`${base}/oauth/authorize`, {
    method: "POST", redirect: "manual",
    headers: { ...form, cookie: session },
    body: new URLSearchParams(decision).toString(),
  });
  check(decided.status === 303, `consent: ${decided.status}`);
  redirectedTo = new URL(decided.headers.get("location"));
  check(redirectedTo.href.startsWith(`${redirect}?`), redirectedTo.href);
}

const kept = {};
const provider = {
  get redirectUrl() { return redirect; },
  get clientMetadata() {
    return {
      client_name: name,
      redirect_uris: [redirect],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  },
  state() { return "ts-state-1"; },
  clientInformation() { return kept.client; },
  saveClientInformation(info) { kept.client = info; },
  tokens() { return kept.tokens; },
  saveTokens(tokens) { kept.tokens = tokens; },
  async redirectToAuthorization(authorizationUrl) { await playThePerson(authorizationUrl); },
  saveCodeVerifier(verifier) { kept.verifier = verifier; },
  codeVerifier() { return kept.verifier; },
};

function data(result) {
  check(!result.isError, `tool error: ${JSON.stringify(result.content)}`);
  return result.structuredContent;
}

const first = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
const client = new Client({ name: "n8v-oauth-e2e", version: "1.0.0" });
try {
  await client.connect(first);
  throw new Error("connected without authorizing");
} catch (e) {
  if (!(e instanceof UnauthorizedError)) throw e;
}
check(redirectedTo, "the person was sent to the authorization URL");
check(redirectedTo.searchParams.get("state") === "ts-state-1", "state comes back");
await first.finishAuth(redirectedTo.searchParams.get("code"));

const again = new Client({ name: "n8v-oauth-e2e", version: "1.0.0" });
await again.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
const tools = (await again.listTools()).tools.map((t) => t.name);
check(tools.includes("session_start"), `tools: ${tools}`);
const session = data(await again.callTool({
  name: "session_start", arguments: { goal: "Connect from TypeScript", purpose: "Open this conversation" },
})).id;
const read = data(await again.callTool({
  name: "journal_session", arguments: { session_id: session, session, purpose: "Check who I am" },
}));
await again.close();
check(kept.tokens?.refresh_token, "a refresh token was issued");
console.log(JSON.stringify({
  session,
  assistant: read.session.assistant,
  client_id: kept.client.client_id,
  access_token: kept.tokens.access_token,
  iss: redirectedTo.searchParams.get("iss"),
}));
