/**
 * The figures of V8's `--trace-gc-nvp` lines (one per collection, `name=value` pairs after
 * `<ms> ms:`) over a measured window: scavenges (`gc=s`) with their interval, pause, and bytes
 * kept in the young generation (`new_space_survived`) and moved to the old one (`promoted`), per
 * scavenge and per call; and the mark-compact collections (`gc=mc`, `gc=mmc`). Pauses are the
 * main thread's: the share of the process's CPU that went to collections is at least theirs.
 */

export interface GcTraceSummary {
  scavenges: number;
  /** Mean ms between scavenges (null with fewer than two). */
  scavengeIntervalMs: number | null;
  scavengePauseMs: { mean: number; max: number; total: number };
  promotedKbPerScavenge: number;
  survivedKbPerScavenge: number;
  /** Null without calls. */
  perCall: {
    promotedBytes: number;
    survivedBytes: number;
    scavengePauseUs: number;
    markCompactPauseUs: number;
  } | null;
  markCompacts: number;
  markCompactPauseMs: number;
}

interface Collection {
  atMs: number;
  kind: string;
  values: Map<string, number>;
}

const LINE = /(\d+(?:\.\d+)?) ms: pause=/;
const PAIR = /([a-z_.]+)=(-?\d+(?:\.\d+)?)/g;
const KIND = / gc=([a-z]+)/;

function parseCollection(line: string): Collection | null {
  const at = LINE.exec(line);
  const kind = KIND.exec(line);
  if (at === null || kind === null) return null;
  const values = new Map<string, number>();
  for (const [, name, value] of line.matchAll(PAIR)) {
    if (name !== undefined && value !== undefined) values.set(name, Number(value));
  }
  return { atMs: Number(at[1]), kind: kind[1] ?? '', values };
}

const round = (value: number, places = 2): number => {
  const scale = 10 ** places;
  return Math.round(value * scale) / scale;
};

export function summarizeGcTrace(lines: readonly string[], calls: number): GcTraceSummary {
  const collections = lines.map(parseCollection).filter((one) => one !== null);
  const scavenges = collections.filter((one) => one.kind === 's');
  const markCompacts = collections.filter((one) => one.kind !== 's');
  const sum = (of: readonly Collection[], name: string): number =>
    of.reduce((total, one) => total + (one.values.get(name) ?? 0), 0);
  const pauses = scavenges.map((one) => one.values.get('pause') ?? 0);
  const total = sum(scavenges, 'pause');
  const promoted = sum(scavenges, 'promoted');
  const survived = sum(scavenges, 'new_space_survived');
  const markCompactPause = sum(markCompacts, 'pause');
  const count = Math.max(1, scavenges.length);
  const first = scavenges[0];
  const last = scavenges.at(-1);
  return {
    scavenges: scavenges.length,
    scavengeIntervalMs:
      first === undefined || last === undefined || scavenges.length < 2
        ? null
        : Math.round((last.atMs - first.atMs) / (scavenges.length - 1)),
    scavengePauseMs: {
      mean: round(total / count),
      max: round(Math.max(0, ...pauses)),
      total: round(total, 1),
    },
    promotedKbPerScavenge: round(promoted / count / 1024, 1),
    survivedKbPerScavenge: round(survived / count / 1024, 1),
    perCall:
      calls === 0
        ? null
        : {
            promotedBytes: Math.round(promoted / calls),
            survivedBytes: Math.round(survived / calls),
            scavengePauseUs: round((total / calls) * 1000, 1),
            markCompactPauseUs: round((markCompactPause / calls) * 1000, 1),
          },
    markCompacts: markCompacts.length,
    markCompactPauseMs: round(markCompactPause, 1),
  };
}
