// Smoke test of the generated TypeScript client against a live server:
//
//   N8V_URL=http://127.0.0.1:8080 N8V_TOKEN=n8v_sk_... npm run smoke
//
// The token's account needs the assistantJournal flag and the scopes chats:read, records:read,
// records:write. Opens a session, appends a line to the account's Record with a purpose, reads
// the catch-up brief, and checks each step; exits non-zero on the first failure.

import { randomUUID } from 'node:crypto';
import {
  appendRecordEntry,
  client,
  getCatchUp,
  getSession,
  listRecords,
  startSession,
} from './src';

function check(condition: unknown, what: string, detail?: unknown): asserts condition {
  if (!condition) {
    console.error(`typescript sdk smoke: ${what}`, JSON.stringify(detail ?? null));
    process.exit(1);
  }
}

async function main(): Promise<void> {
  const baseUrl = process.env.N8V_URL;
  const token = process.env.N8V_TOKEN;
  check(baseUrl && token, 'set N8V_URL and N8V_TOKEN');
  client.setConfig({ baseUrl, auth: () => token });

  const marker = `typescript sdk smoke ${randomUUID()}`;
  const purpose = 'Check the generated TypeScript client end to end';

  const opened = await startSession({
    body: { goal: `Goal of the ${marker}` },
    headers: { 'X-Assistant': 'typescript-sdk-smoke' },
  });
  check(opened.response.status === 201 && opened.data, 'open a session', opened.error);
  const session = opened.data;
  check(session.id.startsWith('ses_') && session.status === 'open', 'the session is open', session);

  const records = await listRecords({ headers: { 'X-Session-Id': session.id } });
  check(records.data, 'list records', records.error);
  const own = records.data.records.find((r) => r.kind === 'account');
  check(own, 'the account has its own Record', records.data);

  const appended = await appendRecordEntry({
    path: { id: own.id },
    body: { line: marker },
    headers: { 'X-Purpose': purpose, 'X-Session-Id': session.id },
  });
  check(appended.response.status === 201 && appended.data?.line === marker, 'append', appended.error);

  const detail = await getSession({ path: { id: session.id } });
  check(detail.data, 'read the session', detail.error);
  const call = detail.data.actions.find((a) => a.operation === 'appendRecordEntry');
  check(call?.purpose === purpose, 'the append is journalled with its purpose', detail.data.actions);

  const brief = await getCatchUp({ query: { since: session.id } });
  check(brief.data, 'read the catch-up brief', brief.error);
  const lines = brief.data.records.flatMap((r) => r.newest_lines);
  check(lines.includes(marker), 'the brief shows the appended line', brief.data);

  console.log(`typescript sdk smoke: ok (session ${session.id})`);
}

main().catch((e) => {
  console.error('typescript sdk smoke:', e);
  process.exit(1);
});
