/**
 * CPU time and memory of a process and its children, read from /proc (Linux): utime + stime in
 * clock ticks (USER_HZ, 100 on Linux), VmRSS and VmHWM (peak RSS), and a peak reset through
 * `clear_refs` so a phase's peak is its own.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/** User and kernel CPU seconds from /proc/<pid>/stat (fields after the command name, which may contain spaces). */
export function parseCpuSplit(statText: string): { user: number; system: number } {
  if (!statText.includes(')')) return { user: 0, system: 0 };
  const fields = statText.slice(statText.lastIndexOf(')') + 2).split(' ');
  // Field 14 (utime) and 15 (stime) of stat are 11 and 12 after the state field (index 0 here).
  return {
    user: Number(fields[11] ?? 0) / TICKS_PER_SECOND,
    system: Number(fields[12] ?? 0) / TICKS_PER_SECOND,
  };
}

export function parseCpuSeconds(statText: string): number {
  const split = parseCpuSplit(statText);
  return split.user + split.system;
}

export function parseStatusKilobytes(statusText: string, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(statusText);
  return match === null ? 0 : Number(match[1]);
}

function readOr(path: string, fallback: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return fallback;
  }
}

/** The process and its descendants (cluster workers). */
export function processTree(pid: number): number[] {
  const children = readOr(`/proc/${pid}/task/${pid}/children`, '')
    .split(' ')
    .filter((text) => text.trim() !== '')
    .map(Number);
  return [pid, ...children.flatMap(processTree)];
}

export interface ProcessStats {
  cpuSeconds: number;
  /** The part of `cpuSeconds` spent in the kernel (system calls: socket reads and writes). */
  systemSeconds: number;
  rssMb: number;
  peakRssMb: number;
}

export function readProcessStats(pid: number): ProcessStats {
  let cpuSeconds = 0;
  let systemSeconds = 0;
  let rssKb = 0;
  let peakKb = 0;
  for (const one of processTree(pid)) {
    const split = parseCpuSplit(readOr(`/proc/${one}/stat`, ''));
    cpuSeconds += split.user + split.system;
    systemSeconds += split.system;
    const status = readOr(`/proc/${one}/status`, '');
    rssKb += parseStatusKilobytes(status, 'VmRSS');
    peakKb += parseStatusKilobytes(status, 'VmHWM');
  }
  return { cpuSeconds, systemSeconds, rssMb: rssKb / 1024, peakRssMb: peakKb / 1024 };
}

/** Resets the peak RSS of the process tree (writes 5 to clear_refs); false if not allowed. */
export function resetPeakRss(pid: number): boolean {
  try {
    for (const one of processTree(pid)) writeFileSync(`/proc/${one}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Busy and total clock ticks of one CPU from /proc/stat (`cpu<N>` line): busy is everything but
 * idle and iowait (user, nice, system, irq, softirq, steal). Zeros when the CPU has no line.
 */
export function parseCpuTicks(statText: string, cpu: string): { busy: number; total: number } {
  const line = statText.split('\n').find((one) => one.startsWith(`cpu${cpu} `));
  if (line === undefined) return { busy: 0, total: 0 };
  const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = ticks.reduce((sum, value) => sum + value, 0);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  return { busy: total - idle, total };
}

/** The same, read now. */
export function readCpuTicks(cpu: string): { busy: number; total: number } {
  return parseCpuTicks(readOr('/proc/stat', ''), cpu);
}
