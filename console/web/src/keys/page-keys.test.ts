import { describe, expect, it } from 'vitest';
import { keyPageOf } from './page-keys.js';

describe('keys table pages', () => {
  it('cuts the rows into pages of the chosen size', () => {
    expect(keyPageOf(1000, 100, 0)).toEqual({ index: 0, count: 10, start: 0, end: 100 });
    expect(keyPageOf(1000, 100, 9)).toEqual({ index: 9, count: 10, start: 900, end: 1000 });
    expect(keyPageOf(250, 100, 2)).toEqual({ index: 2, count: 3, start: 200, end: 250 });
  });

  it('keeps the page within the rows when a search leaves fewer', () => {
    expect(keyPageOf(30, 100, 7)).toEqual({ index: 0, count: 1, start: 0, end: 30 });
    expect(keyPageOf(150, 50, 9)).toEqual({ index: 2, count: 3, start: 100, end: 150 });
    expect(keyPageOf(0, 50, 3)).toEqual({ index: 0, count: 1, start: 0, end: 0 });
    expect(keyPageOf(10, 50, -1)).toEqual({ index: 0, count: 1, start: 0, end: 10 });
  });
});
