/**
 * One delivery attempt: POST the body with a timeout over an undici Agent whose DNS lookup refuses
 * the addresses the URL guard refuses (a name pointing at 169.254.169.254 fails like the address
 * itself). The response body is read up to a small cap and dropped (it is never logged).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Agent, request } from 'undici';
import { refusedAddress, type TargetGuard } from './guard-target-url.js';
import type { AttemptResult } from './plan-next-attempt.js';

export interface SendRequest {
  url: URL;
  headers: Record<string, string>;
  body: string;
}

export interface SentAttempt extends AttemptResult {
  /** Why no response came (timeout, refused connection), for the history; never a body. */
  error?: string;
}

function guardedLookup(guard: TargetGuard): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error !== null) {
        callback(error, '', 0);
        return;
      }
      const refused = addresses
        .map((entry) => refusedAddress(entry.address, guard))
        .find((reason) => reason !== null);
      if (refused !== undefined) {
        callback(new Error(`${hostname} resolves to ${refused}`), '', 0);
        return;
      }
      if (options.all === true) {
        (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
        return;
      }
      const first = addresses[0];
      if (first === undefined) callback(new Error(`${hostname} has no address`), '', 0);
      else callback(null, first.address, first.family);
    });
  };
}

export class NotificationSender {
  readonly #agent: Agent;
  readonly #timeoutMs: number;

  constructor(options: { guard: TargetGuard; timeoutMs: number }) {
    this.#timeoutMs = options.timeoutMs;
    this.#agent = new Agent({
      connect: { lookup: guardedLookup(options.guard), timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 4_000,
    });
  }

  async send(input: SendRequest): Promise<SentAttempt> {
    try {
      const response = await request(input.url, {
        method: 'POST',
        dispatcher: this.#agent,
        headers: { 'content-type': 'application/json', ...input.headers },
        body: input.body,
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      const retryAfter = response.headers['retry-after'];
      return {
        statusCode: response.statusCode,
        retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
      };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { statusCode: null, error: message.slice(0, 300) };
    }
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}
