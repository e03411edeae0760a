/**
 * Console pages benchmark: 1,000 keys and 1,000,000 usage records, each page's time to its main
 * content in Chromium. A fresh PostgreSQL database (created and dropped here) gets the ledger's
 * migrations and the records (generated in PostgreSQL over the last 30 days, with the rollups and
 * totals the insert path writes); `tollgate local` runs on it (its demo world), 1,000 ApiKeys are
 * applied in `demo` and the records spread over them; the web app is built for production; Chromium
 * signs in and loads each page cold (`--runs` times): the keys page until its 1,000 rows are
 * listed, a key's page until its daily chart is drawn, the key's records page until its first page of records is listed, the dashboard
 * until its trend, models and top keys are shown. The usage API calls behind them are timed too.
 *
 * The figures go to the raw result `bench/results/<date>T<time>-console-pages.json`
 * (write-bench-result.ts).
 *
 *   npx tsx bench/macro/console-pages.ts [--keys 1000] [--records 1000000] [--runs 5] [--verbose]
 *     [--url postgres://postgres@127.0.0.1:5432/postgres]
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openLedgerDatabase } from '../../ledger/open-ledger-database.js';
import { createTestDatabase } from '../../test/support/ledger/ledger-test-databases.js';
import { buildWebApp, openBrowser } from '../../test/support/console-browser.js';
import {
  allOf,
  resourceTimings,
  shown,
  shownWithText,
  timeApi,
  timePage,
  type PageProbe,
} from './console-pages/measure-pages.js';
import { seedConsoleLedger } from './console-pages/seed-console-ledger.js';
import { startBenchRun } from '../support/write-bench-result.js';
import { startConsoleLocal, type ConsoleLocal } from './console-pages/start-console-local.js';

const { values: args } = parseArgs({
  options: {
    keys: { type: 'string', default: '1000' },
    records: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '5' },
    /** Also list each page's requests (start and end) of its last run. */
    verbose: { type: 'boolean', default: false },
    url: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const keyCount = Number(args.keys);
const recordCount = Number(args.records);
const runs = Number(args.runs);
const NAMESPACE = 'demo';
const bench = startBenchRun('console-pages', 'bench/macro/console-pages.ts');
const apiMs: Record<string, number> = {};
const pages: Record<string, { medianMs: number; maxMs: number }> = {};
const log = (line: string) => {
  process.stdout.write(`${line}\n`);
};

function kubectl(kubeconfig: string, argv: readonly string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'kubectl',
      ['--kubeconfig', kubeconfig, ...argv],
      { timeout: 300_000, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`kubectl ${argv.join(' ')}: ${stderr || error.message}`));
        else resolve(stdout);
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

const keyName = (index: number) => `bench-${String(index).padStart(4, '0')}`;

function renderKeys(count: number): string {
  const documents: string[] = [];
  for (let index = 0; index < count; index++) {
    documents.push(`apiVersion: tollgate.dev/v1alpha1
kind: ApiKey
metadata: {name: ${keyName(index)}, namespace: ${NAMESPACE}}
spec: {groupName: anthropic, limits: {quotaUSD: '50', dailyUSD: '5'}}`);
  }
  return `${documents.join('\n---\n')}\n`;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

async function main(): Promise<void> {
  await buildWebApp();
  log('built the web app (production)');
  const database = await createTestDatabase(args.url);
  const data = mkdtempSync(join(tmpdir(), 'tollgate-console-bench-'));
  let local: ConsoleLocal | undefined;
  try {
    const ledger = await openLedgerDatabase({ databaseUrl: database.databaseUrl });
    await ledger.close();
    local = await startConsoleLocal({ dataDirectory: data, databaseUrl: database.databaseUrl });
    log(`tollgate local: console ${local.consoleUrl}`);
    const applyStarted = Date.now();
    await kubectl(local.kubeconfigPath, ['apply', '-f', '-'], renderKeys(keyCount));
    log(`applied ${keyCount} ApiKeys in ${((Date.now() - applyStarted) / 1000).toFixed(1)} s`);
    const listed = JSON.parse(
      await kubectl(local.kubeconfigPath, ['get', 'apikeys', '-n', NAMESPACE, '-o', 'json']),
    ) as { items: { metadata: { name: string; uid: string } }[] };
    const keys = listed.items.filter((item) => item.metadata.name.startsWith('bench-'));
    const seeding = await openLedgerDatabase(
      { databaseUrl: database.databaseUrl },
      { migrate: false },
    );
    const seedStarted = Date.now();
    await seedConsoleLedger(seeding, {
      keys: {
        namespace: NAMESPACE,
        uids: keys.map((key) => key.metadata.uid),
        names: keys.map((key) => key.metadata.name),
      },
      records: recordCount,
      now: Date.now(),
      log,
    });
    const [counted] = await seeding.query<{ count: string }>(
      'SELECT count(*)::text AS count FROM usage_records',
    );
    await seeding.close();
    log(
      `seeded ${counted?.count ?? '?'} records in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`,
    );

    const password = readFileSync(join(data, 'console-admin-password'), 'utf8').trim();
    const signIn = await fetch(`${local.consoleUrl}/api/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const key = keyName(0);
    const api = `${local.consoleUrl}/api/v1/accounts/${NAMESPACE}`;
    const hourAgo = new Date(Date.now() - 24 * 3_600_000).toISOString();
    const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString();
    const calls: [string, string][] = [
      ['keys list (1,000 keys, today’s cost)', `${api}/keys`],
      ['key summary (30 days)', `${api}/keys/${key}/usage?days=30`],
      ['records, first page of one key (50)', `${api}/usage/records?key=${key}&limit=50`],
      [
        'records, one key, one model, errors',
        `${api}/usage/records?key=${key}&model=gpt-5.5&outcome=server_error&limit=50`,
      ],
      ['records of the account, first page (50)', `${api}/usage/records?limit=50`],
      ['trend per hour (24 h)', `${api}/usage/trend?bucket=hour&from=${hourAgo}`],
      ['trend per day (30 days)', `${api}/usage/trend?bucket=day&from=${monthAgo}`],
      ['models (30 days)', `${api}/usage/models?from=${monthAgo}`],
      ['models of one key (90 days)', `${api}/usage/models?key=${key}`],
      ['top keys (30 days)', `${api}/usage/top-keys`],
      ['account standing', `${api}/usage/account`],
    ];
    log('\nAPI (median of 5, server and loopback):');
    for (const [label, url] of calls) {
      const timing = await timeApi(url, { cookie, runs: 5 });
      apiMs[label] = Math.round(timing.medianMs);
      log(`  ${label}: ${timing.medianMs.toFixed(0)} ms (${timing.status}, ${timing.bytes} bytes)`);
    }

    const probes: PageProbe[] = [
      {
        name: 'Keys',
        path: `/accounts/${NAMESPACE}/keys`,
        // The count of every key and the table's first page of rows.
        ready: allOf(shownWithText('p.count', `${keyCount} keys`), shown('table.keys tbody tr')),
      },
      {
        name: 'Key',
        path: `/accounts/${NAMESPACE}/keys/${key}`,
        ready: shown('.recharts-bar-rectangle'),
      },
      {
        name: 'Key records',
        path: `/accounts/${NAMESPACE}/keys/${key}/records`,
        ready: shown('table.records tbody tr'),
      },
      {
        name: 'Dashboard',
        path: `/accounts/${NAMESPACE}/dashboard`,
        ready: allOf(
          shown('.recharts-bar-rectangle'),
          shownWithText('table caption', 'Usage per model'),
          shownWithText('table caption', 'Top keys by cost'),
          shown('[aria-label="Requests in flight"]'),
        ),
      },
    ];
    const browser = await openBrowser();
    try {
      const { page } = browser;
      await page.goto(local.consoleUrl);
      await page.getByLabel('Username').fill('admin');
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Keys' }).waitFor({ timeout: 60_000 });
      log(`\nPages in Chromium (cold load to main content; ${runs} runs after one warm-up):`);
      for (const probe of probes) {
        await timePage(page, { baseUrl: local.consoleUrl, probe });
        const times: number[] = [];
        for (let run = 0; run < runs; run++) {
          times.push(await timePage(page, { baseUrl: local.consoleUrl, probe }));
        }
        pages[probe.name] = {
          medianMs: Math.round(median(times)),
          maxMs: Math.round(Math.max(...times)),
        };
        log(
          `  ${probe.name}: median ${median(times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms`,
        );
        if (args.verbose) {
          for (const entry of await resourceTimings(page)) {
            log(`      ${entry.start}–${entry.end} ms ${entry.name}`);
          }
        }
      }
    } finally {
      await browser.close();
    }
    bench.write({
      parameters: { keys: keyCount, records: recordCount, runs },
      pagesToMainContent: pages,
      apiMedianMs: apiMs,
    });
  } finally {
    await local?.stop();
    rmSync(data, { recursive: true, force: true });
    await database.drop();
  }
}

await main();
