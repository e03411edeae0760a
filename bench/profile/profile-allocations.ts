/**
 * `npx tsx bench/profile/profile-allocations.ts <label> [non-streamed|streamed] [seconds] [rate] [--survivors]`: what a
 * call allocates in Tollgate's process (the side-by-side layout: private Redis, every admission
 * feature on, one worker), under an open loop of Chat Completions calls at `rate` per second
 * (default 500: below saturation, so the figure does not depend on how loaded the machine is).
 * V8's sampling heap profiler keeps every sampled object, freed or not; the summary gives bytes per
 * call by area and by allocating function (with `--survivors`, only what outlived a minor garbage
 * collection: what a call leaves for the old generation), and goes to
 * `bench/results/profiles/allocations-<label>-<kind>.json`. Allocation, unlike CPU time, hardly
 * moves with the machine's load, so before/after pairs are comparable on a busy machine.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRequestKind } from '../support/describe-bench-requests.js';
import { startBenchTarget } from '../support/start-bench-target.js';
import {
  answeredCalls,
  driveLoad,
  startSideBySideLayout,
} from '../support/start-side-by-side-layout.js';
import { summarizeHeapSampling, type HeapSamplingProfile } from './summarize-heap-sampling.js';
import { updateBenchSummaries } from '../support/update-bench-summaries.js';
import { describeBenchFacts } from '../support/describe-bench-facts.js';

const survivorsOnly = process.argv.includes('--survivors');
const [label = 'run', kindText, secondsText = '5', rateText = '500'] = process.argv
  .slice(2)
  .filter((arg) => arg !== '--survivors');
const kindName = kindText === 'streamed' ? 'streamed' : 'non-streamed';
const seconds = Number(secondsText);
const rate = Number(rateText);
const what = survivorsOnly ? 'survivors' : 'allocations';
const kind: BenchRequestKind = { platform: 'openai', stream: kindName === 'streamed', chat: true };

const load = loadavg().map((value) => Math.round(value * 100) / 100);
const facts = describeBenchFacts('bench/profile/profile-allocations.ts');
const layout = await startSideBySideLayout({});
const started = await startBenchTarget(
  { id: 'D1', scenario: 'D', label: 'D', workers: 1, hold: false, crossCheck: false },
  layout.environment,
);
const drive = (durationMs: number, mode: 'closed' | 'open') =>
  driveLoad(layout.loadgen, {
    url: started.url,
    kind,
    credentials: started.credentials,
    load: mode === 'closed' ? { mode, concurrency: 16, durationMs } : { mode, rate, durationMs },
  });
try {
  await drive(3_000, 'closed');
  const path = join(tmpdir(), `${what}-${label}-${kindName}.heapprofile`);
  await started.child?.ask({ type: 'allocations-start', survivorsOnly }, 10_000);
  const calls = answeredCalls(await drive(seconds * 1000, 'open'));
  await started.child?.ask({ type: 'allocations-stop', path }, 60_000);
  const profile = JSON.parse(readFileSync(path, 'utf8')) as HeapSamplingProfile;
  const summary = summarizeHeapSampling(profile, calls);
  const report = {
    facts,
    date: new Date().toISOString(),
    label,
    kind: kindName,
    rate,
    seconds,
    survivorsOnly,
    loadAverageAtStart: load,
    calls,
    summary,
  };
  const folder = fileURLToPath(new URL('../results/profiles/', import.meta.url));
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, `${what}-${label}-${kindName}.json`),
    `${JSON.stringify(report, null, 2)}\n`,
  );
  updateBenchSummaries();
  const verb = survivorsOnly ? 'outliving a minor collection' : 'allocated';
  process.stdout.write(`${calls} calls, ${summary.bytesPerCall} bytes ${verb} per call\n`);
  for (const one of summary.areas) process.stdout.write(`area ${one.bytesPerCall} ${one.name}\n`);
  for (const one of summary.functions) process.stdout.write(`fn ${one.bytesPerCall} ${one.name}\n`);
} finally {
  await started.stop();
  await layout.stop();
}
