/**
 * Finds where a server-sent event stream completes its first event (pure, incremental): an event is
 * complete at the blank line after a field line (`event:`, `data:`, `id:`, …); a block of comment
 * lines only (`: keep-alive`) dispatches nothing and does not count. CR, LF and CRLF line ends are
 * recognised, also split across chunks. Every byte is looked at once and nothing is copied: the
 * chunks stay the caller's, to be passed on as they are.
 */
const LF = 10;
const CR = 13;
const COLON = 58;

export class FirstEventDetector {
  /** True at the start of a line: a line end there is a blank line. */
  #atLineStart = true;
  /** The previous byte was a CR: a LF next belongs to it. */
  #afterCarriageReturn = false;
  /** The block in progress has a field line (it dispatches an event at its blank line). */
  #hasField = false;

  /** Feeds one chunk; true once the first event is complete (then stop feeding). */
  feed(chunk: Uint8Array): boolean {
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index];
      if (this.#afterCarriageReturn) {
        this.#afterCarriageReturn = false;
        if (byte === LF) continue;
      }
      if (byte === CR || byte === LF) {
        if (byte === CR) this.#afterCarriageReturn = true;
        if (!this.#atLineStart) {
          this.#atLineStart = true;
          continue;
        }
        if (this.#hasField) return true;
        continue;
      }
      if (this.#atLineStart) {
        this.#atLineStart = false;
        if (byte !== COLON) this.#hasField = true;
      }
    }
    return false;
  }
}
