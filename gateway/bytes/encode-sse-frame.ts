/** One complete server-sent event frame (terminated by a blank line). */
export function encodeDataFrame(data: unknown): string {
  return `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

/** A named event frame, as Anthropic streams require (`event:` line equal to the payload type). */
export function encodeEventFrame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
