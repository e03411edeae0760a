import { describe, expect, it } from 'vitest';
import { createEventFieldReader, type EventFieldReader } from './read-event-fields.js';
import { createServerSentEventScanner } from './scan-server-sent-events.js';

const LINE_ENDS = ['\n', '\r', '\r\n'];

/** Events of one to three lines, every line end, then the blank line. */
function events(): string[] {
  const out: string[] = [];
  for (const first of LINE_ENDS) {
    for (const second of LINE_ENDS) {
      for (const blank of LINE_ENDS) {
        out.push(`data: {"a":"héllo"}${first}${blank}`);
        out.push(`event: delta${first}data: {"b":1}${second}${blank}`);
        out.push(`id: 7${first}event: x${second}data:no-space${first}${blank}`);
        out.push(`: comment${first}data${second}${blank}`);
      }
    }
  }
  return out;
}

function describeFields(fields: EventFieldReader, bytes: Buffer) {
  return {
    dataLines: fields.dataLines,
    data: fields.data(),
    name: fields.nameStart === -1 ? null : bytes.toString('utf8', fields.nameStart, fields.nameEnd),
    id: fields.id,
  };
}

describe('createEventFieldReader with the line ends counted by the scanner', () => {
  it('reads every event as it does when it searches the lines itself, however the stream is cut', () => {
    const stream = Buffer.from(events().join(''));
    for (const size of [1, 2, 3, 5, 7, 13, 24, 25, 64, stream.length]) {
      const counted = createEventFieldReader();
      const searched = createEventFieldReader();
      let seen = 0;
      const scanner = createServerSentEventScanner((bytes, start, end) => {
        if (scanner.sawCarriageReturn) {
          counted.allowCarriageReturns();
          searched.allowCarriageReturns();
        }
        const text = bytes.toString('latin1', start, end);
        // The scanner's count is the number of line ends in the event (a CRLF is one). A LF split
        // from the CR that ended the event before is held as the start of the next one, uncounted
        // (the reader then searches the lines itself).
        const lineEnds = text.replace(/\r\n/g, '\n').replace(/\r/g, '\n').split('\n').length - 1;
        expect(scanner.eventLineEnds).toBe(text.startsWith('\n') ? lineEnds - 1 : lineEnds);
        counted.lineEnds = scanner.eventLineEnds;
        counted.read(bytes, start, end);
        searched.forgetPositions();
        searched.read(bytes, start, end);
        expect(describeFields(counted, bytes)).toEqual(describeFields(searched, bytes));
        seen += 1;
      });
      for (let start = 0; start < stream.length; start += size) {
        counted.forgetPositions();
        scanner.feed(stream.subarray(start, start + size));
      }
      // Some generated events run together (a CR then a LF is one line end, not a blank line).
      expect(seen).toBeGreaterThan(events().length / 2);
    }
  });
});
