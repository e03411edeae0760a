/**
 * CPU time and memory of a process and its children, read from /proc (Linux): utime + stime in
 * clock ticks (USER_HZ, 100 on Linux), VmRSS and VmHWM (peak RSS), and a peak reset through
 * `clear_refs` so a phase's peak is its own.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/** Fields of /proc/<pid>/stat after the command name (which may contain spaces). */
export function parseCpuSeconds(statText: string): number {
  if (!statText.includes(')')) return 0;
  const fields = statText.slice(statText.lastIndexOf(')') + 2).split(' ');
  // Field 14 (utime) and 15 (stime) of stat are 11 and 12 after the state field (index 0 here).
  const user = Number(fields[11] ?? 0);
  const system = Number(fields[12] ?? 0);
  return (user + system) / TICKS_PER_SECOND;
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
  rssMb: number;
  peakRssMb: number;
}

export function readProcessStats(pid: number): ProcessStats {
  let cpuSeconds = 0;
  let rssKb = 0;
  let peakKb = 0;
  for (const one of processTree(pid)) {
    cpuSeconds += parseCpuSeconds(readOr(`/proc/${one}/stat`, ''));
    const status = readOr(`/proc/${one}/status`, '');
    rssKb += parseStatusKilobytes(status, 'VmRSS');
    peakKb += parseStatusKilobytes(status, 'VmHWM');
  }
  return { cpuSeconds, rssMb: rssKb / 1024, peakRssMb: peakKb / 1024 };
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
