/**
 * Where the time goes, from a V8 `.cpuprofile` (`node --cpu-prof`): self time per area (a package,
 * a folder of ours, Node internals, GC, idle) and the hottest functions. Pure.
 */

export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    hitCount?: number;
  }[];
  startTime: number;
  endTime: number;
  samples?: number[];
}

export interface ProfileShare {
  name: string;
  ms: number;
  share: number;
}

export interface ProfileSummary {
  totalMs: number;
  /** Busy time: everything but `(idle)`. */
  busyMs: number;
  areas: ProfileShare[];
  functions: ProfileShare[];
}

/** The area a frame's script belongs to. */
export function classifyFrame(url: string, functionName: string): string {
  if (url === '') {
    if (functionName === '(idle)') return '(idle)';
    if (functionName === '(garbage collector)') return '(garbage collector)';
    return '(program / native)';
  }
  if (url.startsWith('node:')) return 'node internals';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (modules?.[1] !== undefined) return modules[1];
  // The file's folder, however deep (`gateway/stages/reply`).
  const ours =
    /\/((?:gateway|bench|test|operator|local|store|ledger|console|crds)(?:\/[^/]+)*)\/[^/]+$/.exec(
      url,
    );
  return ours?.[1] ?? 'other';
}

function shortUrl(url: string): string {
  const modules = url.lastIndexOf('node_modules/');
  if (modules !== -1) return url.slice(modules + 'node_modules/'.length);
  const ours = /\/((?:gateway|bench|test|operator|local|store|ledger|console|crds)\/.*)$/.exec(url);
  return ours?.[1] ?? url.replace(/^file:\/\//, '');
}

function ranked(
  totals: Map<string, number>,
  options: { busyMs: number; limit: number },
): ProfileShare[] {
  return [...totals.entries()]
    .map(([name, ms]) => ({ name, ms, share: options.busyMs === 0 ? 0 : ms / options.busyMs }))
    .sort((left, right) => right.ms - left.ms)
    .slice(0, options.limit);
}

export function summarizeCpuProfile(profile: CpuProfile, limit = 15): ProfileSummary {
  const totalMs = (profile.endTime - profile.startTime) / 1000;
  const hits = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
  const msPerHit = hits === 0 ? 0 : totalMs / hits;
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let idleMs = 0;
  for (const node of profile.nodes) {
    const ms = (node.hitCount ?? 0) * msPerHit;
    if (ms === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const area = classifyFrame(url, functionName);
    if (area === '(idle)') {
      idleMs += ms;
      continue;
    }
    areas.set(area, (areas.get(area) ?? 0) + ms);
    const name =
      url === ''
        ? functionName
        : `${functionName || '(anonymous)'} ${shortUrl(url)}${lineNumber > 0 ? `:${lineNumber + 1}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + ms);
  }
  const busyMs = totalMs - idleMs;
  return {
    totalMs,
    busyMs,
    areas: ranked(areas, { busyMs, limit }),
    functions: ranked(functions, { busyMs, limit }),
  };
}
