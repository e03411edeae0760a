/**
 * Child process of the side-by-side bench: the smallest upstream that speaks OpenAI Chat
 * Completions, so its own cost does not hide what the proxy in front of it adds. Answers every POST
 * at once with a fixed completion (usage included), or, when the body asks for a stream, 20 content
 * chunks and a usage chunk as server-sent events. Reports its URL over IPC.
 */
import { createServer } from 'node:http';
import { listenAndAnnounce } from './announce-listening.js';

const CHUNKS = 20;
const usage = { prompt_tokens: 12, completion_tokens: CHUNKS, total_tokens: 12 + CHUNKS };
const completion = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'gpt-4o-mini',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'hello '.repeat(CHUNKS) },
      finish_reason: 'stop',
    },
  ],
  usage,
});
const chunk = (delta: object, extra: object = {}): string =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, delta, finish_reason: null }],
    ...extra,
  })}\n\n`;
const stream = [
  chunk({ role: 'assistant', content: '' }),
  ...Array.from({ length: CHUNKS }, () => chunk({ content: 'hello ' })),
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-4o-mini', choices: [], usage })}\n\n`,
  'data: [DONE]\n\n',
].join('');

const server = createServer((request, response) => {
  const parts: Buffer[] = [];
  request.on('data', (part: Buffer) => parts.push(part));
  request.on('end', () => {
    const streamed = Buffer.concat(parts).includes('"stream":true');
    if (streamed) {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.end(stream);
    } else {
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(completion),
      });
      response.end(completion);
    }
  });
});
server.keepAliveTimeout = 65_000;
listenAndAnnounce(server);
const stop = (): void => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
};
process.on('message', stop);
process.on('disconnect', stop);
process.on('SIGTERM', stop);
