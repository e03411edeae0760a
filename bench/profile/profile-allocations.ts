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
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeBenchFacts } from '../support/describe-bench-facts.js';
import { driveChatCompletions, readChatKindName } from '../support/drive-chat-completions.js';
import { startBenchTarget } from '../support/start-bench-target.js';
import { startSideBySideLayout } from '../support/start-side-by-side-layout.js';
import { updateBenchSummaries } from '../support/update-bench-summaries.js';
import { writeProfileReport } from '../support/write-profile-report.js';
import { summarizeHeapSampling, type HeapSamplingProfile } from './summarize-heap-sampling.js';

const survivorsOnly = process.argv.includes('--survivors');
const [label = 'run', kindText, secondsText = '5', rateText = '500'] = process.argv
  .slice(2)
  .filter((arg) => arg !== '--survivors');
const kindName = readChatKindName(kindText, 'non-streamed');
const seconds = Number(secondsText);
const rate = Number(rateText);
const what = survivorsOnly ? 'survivors' : 'allocations';

const facts = describeBenchFacts('bench/profile/profile-allocations.ts');
const layout = await startSideBySideLayout({});
const started = await startBenchTarget(
  { id: 'D1', scenario: 'D', label: 'D', workers: 1, hold: false, crossCheck: false },
  layout.environment,
);
const drive = driveChatCompletions(layout, started, kindName);
try {
  await drive.closed(16, 3_000);
  const path = join(tmpdir(), `${what}-${label}-${kindName}.heapprofile`);
  await started.child?.ask({ type: 'allocations-start', survivorsOnly }, 10_000);
  const calls = await drive.open(rate, seconds * 1000);
  await started.child?.ask({ type: 'allocations-stop', path }, 60_000);
  const profile = JSON.parse(readFileSync(path, 'utf8')) as HeapSamplingProfile;
  const summary = summarizeHeapSampling(profile, calls);
  writeProfileReport(`${what}-${label}-${kindName}`, {
    facts,
    date: new Date().toISOString(),
    label,
    kind: kindName,
    rate,
    seconds,
    survivorsOnly,
    loadAverageAtStart: facts.loadAverageAtStart,
    calls,
    summary,
  });
  updateBenchSummaries();
  const verb = survivorsOnly ? 'outliving a minor collection' : 'allocated';
  process.stdout.write(`${calls} calls, ${summary.bytesPerCall} bytes ${verb} per call\n`);
  for (const one of summary.areas) process.stdout.write(`area ${one.bytesPerCall} ${one.name}\n`);
  for (const one of summary.functions) process.stdout.write(`fn ${one.bytesPerCall} ${one.name}\n`);
} finally {
  await started.stop();
  await layout.stop();
}
