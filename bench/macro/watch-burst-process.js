// Preloaded (`node --import ./bench/macro/watch-burst-process.js bin/tollgate.js local …`) by
// bench/macro/burst-start-bench.ts into the local-mode process it measures, which runs the shipped build
// with no bench code otherwise. SIGUSR2 starts a window: the event loop's delay is sampled every
// 100 ms (the largest stall seen in each slice, `monitorEventLoopDelay`) and, with
// TOLLGATE_BENCH_CPU_PROFILE=1, a CPU profile is taken. The next SIGUSR2 ends the window and writes
// `loop-delay.json` (and `burst.cpuprofile`) into TOLLGATE_BENCH_WATCH_DIR, then `done`.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';

const folder = process.env.TOLLGATE_BENCH_WATCH_DIR;
const profile = process.env.TOLLGATE_BENCH_CPU_PROFILE === '1';
let window = null;

function post(session, method, params) {
  return new Promise((resolve, reject) => {
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

async function start() {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const slices = [];
  const timer = setInterval(() => {
    slices.push({ at: Date.now(), maxMs: Math.round(histogram.max / 1e5) / 10 });
    histogram.reset();
  }, 100);
  let session = null;
  if (profile) {
    session = new Session();
    session.connect();
    await post(session, 'Profiler.enable');
    await post(session, 'Profiler.setSamplingInterval', { interval: 500 });
    await post(session, 'Profiler.start');
  }
  window = { histogram, slices, timer, session };
}

async function stop() {
  const { histogram, slices, timer, session } = window;
  window = null;
  clearInterval(timer);
  slices.push({ at: Date.now(), maxMs: Math.round(histogram.max / 1e5) / 10 });
  histogram.disable();
  writeFileSync(join(folder, 'loop-delay.json'), JSON.stringify(slices));
  if (session !== null) {
    const { profile: taken } = await post(session, 'Profiler.stop');
    writeFileSync(join(folder, 'burst.cpuprofile'), JSON.stringify(taken));
    session.disconnect();
  }
  writeFileSync(join(folder, 'done'), '');
}

if (folder !== undefined) {
  process.on('SIGUSR2', () => {
    const step = window === null ? start() : stop();
    step.catch((error) => process.stderr.write(`watch-burst-process: ${error}\n`));
  });
}
