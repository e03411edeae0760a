/**
 * What a call allocates, from a V8 sampling heap profile (`HeapProfiler.stopSampling`): bytes per
 * call by area (a package, a gateway folder, Node internals) and by allocating function. Pure.
 */
import { classifyFrame } from './summarize-cpu-profile.js';

export interface HeapSamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  /** Estimated bytes allocated by this frame itself (V8 scales the samples). */
  selfSize: number;
  children: HeapSamplingNode[];
}

export interface HeapSamplingProfile {
  head: HeapSamplingNode;
}

export interface AllocationShare {
  name: string;
  bytesPerCall: number;
  share: number;
}

export interface AllocationSummary {
  bytesPerCall: number;
  areas: AllocationShare[];
  functions: AllocationShare[];
}

function ranked(totals: Map<string, number>, all: number, calls: number, limit: number) {
  return [...totals.entries()]
    .map(([name, bytes]) => ({
      name,
      bytesPerCall: Math.round(bytes / calls),
      share: all === 0 ? 0 : Math.round((bytes / all) * 1000) / 1000,
    }))
    .sort((left, right) => right.bytesPerCall - left.bytesPerCall)
    .slice(0, limit);
}

function add(totals: Map<string, number>, name: string, bytes: number): void {
  totals.set(name, (totals.get(name) ?? 0) + bytes);
}

export function summarizeHeapSampling(
  profile: HeapSamplingProfile,
  calls: number,
  limit = 25,
): AllocationSummary {
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let all = 0;
  const pending = [profile.head];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    pending.push(...node.children);
    if (node.selfSize === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    all += node.selfSize;
    add(areas, classifyFrame(url, functionName), node.selfSize);
    const where =
      url === ''
        ? ''
        : ` ${url.replace(/^.*?((?:node_modules|gateway|store|bench)\/)/, '$1')}:${lineNumber + 1}`;
    add(functions, `${functionName || '(anonymous)'}${where}`, node.selfSize);
  }
  const perCall = calls === 0 ? 0 : Math.round(all / calls);
  return {
    bytesPerCall: perCall,
    areas: ranked(areas, all, Math.max(calls, 1), limit),
    functions: ranked(functions, all, Math.max(calls, 1), limit),
  };
}
