/**
 * Runs an inspector recording of this process between two IPC messages (`<name>-start`, then
 * `<name>-stop` with a file path), so it covers the load only, not start-up and module loading:
 * `begin` starts it on a connected session, `end` stops it and returns what is written to the path
 * as JSON. Answers `<name>-started`, `<name>-written` or `<name>-failed`.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

interface InspectorRecording<Start> {
  name: string;
  begin(session: Session, message: Start): Promise<void>;
  end(session: Session): Promise<unknown>;
}

export function answerInspectorRequests<Start extends { type: string }>(
  recording: InspectorRecording<Start>,
): void {
  const session = new Session();
  const { name } = recording;
  const handle = async (message: { type: string; path?: string }): Promise<void> => {
    if (message.type === `${name}-start`) {
      session.connect();
      await recording.begin(session, message as Start);
      process.send?.({ type: `${name}-started` });
      return;
    }
    writeFileSync(message.path ?? '', JSON.stringify(await recording.end(session)));
    session.disconnect();
    process.send?.({ type: `${name}-written` });
  };
  process.on('message', (message: { type?: unknown; path?: string }) => {
    if (message.type !== `${name}-start` && message.type !== `${name}-stop`) return;
    handle(message as { type: string; path?: string }).catch((error: unknown) => {
      process.send?.({ type: `${name}-failed`, message: String(error) });
    });
  });
}
