/**
 * Instruction counts from callgrind: the total of a dump (`totals:`, or `summary:` in older
 * formats) and a round's instructions per call, less what the process does on its own while idle
 * (timers run by wall time, and under callgrind a round lasts some fifty times longer than it
 * would natively, so idle work would otherwise swell every call's share).
 */

/** The `Ir` total of one callgrind dump's text. */
export function readCallgrindTotal(dumpText: string): number {
  const match = /^(?:totals|summary):\s+(\d+)/m.exec(dumpText);
  if (match?.[1] === undefined) throw new Error('not a callgrind dump: no totals line');
  return Number(match[1]);
}

export interface InstructionRound {
  /** Instructions counted while the load ran. */
  instructions: number;
  /** Wall seconds the load ran. */
  seconds: number;
  /** Calls answered. */
  calls: number;
}

/** Instructions per call of a round, with the idle rate (instructions per second) taken out. */
export function instructionsPerCall(round: InstructionRound, idlePerSecond: number): number {
  if (round.calls <= 0) throw new Error('no calls answered in the round');
  return Math.max(0, round.instructions - idlePerSecond * round.seconds) / round.calls;
}
