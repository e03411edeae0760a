import { describe, expect, it } from 'vitest';
import { FirstEventDetector } from './detect-first-event.js';

/** Feeds the pieces in order; the index of the piece that completed the first event, or -1. */
function completedAt(...pieces: string[]): number {
  const detector = new FirstEventDetector();
  return pieces.findIndex((piece) => detector.feed(Buffer.from(piece)));
}

describe('FirstEventDetector', () => {
  it('completes at the blank line after a field line, with LF, CRLF or CR line ends', () => {
    expect(completedAt('event: message_start\ndata: {}\n', '\n')).toBe(1);
    expect(completedAt('data: {}\r\n\r\n')).toBe(0);
    expect(completedAt('data: {}\r\r')).toBe(0);
    expect(completedAt('data: {}\n')).toBe(-1);
  });

  it('finds line ends split across chunks, a CRLF split between its CR and LF included', () => {
    expect(completedAt('da', 'ta: {', '}\r', '\n', '\r', '\n')).toBe(4);
    expect(completedAt('data: x\r', '\n\r\n')).toBe(1);
  });

  it('does not count blocks of comment lines only (keep-alives)', () => {
    expect(completedAt(': ping\n\n', ':\n\n')).toBe(-1);
    expect(completedAt(': ping\n\n', 'data: {}\n\n')).toBe(1);
    expect(completedAt(': ping\ndata: {}\n\n')).toBe(0);
  });

  it('does not count leading blank lines', () => {
    expect(completedAt('\n\n\r\n')).toBe(-1);
    expect(completedAt('\n\nid: 1\n\n')).toBe(0);
  });
});
