/**
 * The ioredis client for the store, standalone or Cluster, set to fail fast and recover by itself:
 * no offline queue, one retry per request, short connect and command timeouts, reconnect forever
 * with a capped backoff. Connection failures surface as `StoreUnavailableError`.
 */
import { Cluster, Redis } from 'ioredis';
import { StoreUnavailableError } from './store.js';

export type RedisClient = Redis | Cluster;

export interface RedisClientOptions {
  url?: string;
  /** `host:port` seeds of a Redis Cluster; wins over `url`. */
  clusterNodes?: readonly string[];
  connectTimeoutMs?: number;
  commandTimeoutMs?: number;
}

function backoff(times: number): number {
  return Math.min(50 * 2 ** Math.min(times, 10), 1_000);
}

export function connectRedisClient(options: RedisClientOptions): RedisClient {
  const connectTimeout = options.connectTimeoutMs ?? 1_000;
  const commandTimeout = options.commandTimeoutMs ?? 2_000;
  const common = {
    // Commands issued in the same tick (many requests at once) share one socket write.
    enableAutoPipelining: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout,
    commandTimeout,
    retryStrategy: backoff,
  };
  if (options.clusterNodes !== undefined && options.clusterNodes.length > 0) {
    const nodes = options.clusterNodes.map((node) => {
      const separator = node.lastIndexOf(':');
      return { host: node.slice(0, separator), port: Number(node.slice(separator + 1)) };
    });
    return new Cluster(nodes, {
      enableAutoPipelining: true,
      enableOfflineQueue: false,
      clusterRetryStrategy: backoff,
      slotsRefreshTimeout: connectTimeout,
      redisOptions: common,
    });
  }
  if (options.url === undefined) throw new Error('a Redis URL or cluster nodes are required');
  return new Redis(options.url, common);
}

const UNAVAILABLE_REPLIES = ['CLUSTERDOWN', 'LOADING', 'TRYAGAIN', 'MASTERDOWN', 'READONLY'];

/**
 * ioredis attaches the failed command to its errors (`command: { name, args }`): a script's args
 * hold request data (a captured body, a settlement's record). Removed from every error before it
 * leaves the store, so no log or error answer can print them.
 */
function stripCommand(error: unknown): void {
  if (typeof error !== 'object' || error === null) return;
  const carrier = error as { command?: unknown; args?: unknown; cause?: unknown };
  delete carrier.command;
  delete carrier.args;
  if (carrier.cause !== error) stripCommand(carrier.cause);
}

/**
 * Maps connection failures to StoreUnavailableError; a Redis error reply stays as it is. Either
 * way without the command's args (stripCommand).
 */
export function toStoreError(error: unknown): unknown {
  stripCommand(error);
  if (error instanceof Error && error.name === 'ReplyError') {
    const unavailable = UNAVAILABLE_REPLIES.some((prefix) => error.message.startsWith(prefix));
    if (!unavailable) return error;
  }
  if (StoreUnavailableError.is(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new StoreUnavailableError(`Redis is unavailable: ${message}`, { cause: error });
}

function rethrowStoreError(error: unknown): never {
  throw toStoreError(error);
}

/**
 * The operation's promise with its failures mapped (toStoreError), a synchronous throw included.
 * Not an `async` function: every store call goes through here, and an async frame costs a promise
 * and a turn of its own on top of the operation's.
 */
export function guardRedis<T>(operation: () => Promise<T>): Promise<T> {
  let running: Promise<T>;
  try {
    running = operation();
  } catch (error) {
    // Rare (the operation threw before it had a promise): mapped as a rejection is.
    return Promise.resolve().then(() => rethrowStoreError(error));
  }
  return running.catch(rethrowStoreError);
}

/** Resolves once the client is ready, or after `timeoutMs` (the store then serves 503s). */
export async function waitUntilReady(client: RedisClient, timeoutMs: number): Promise<void> {
  if (client.status === 'ready') return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, timeoutMs);
    function done(): void {
      clearTimeout(timer);
      client.off('ready', done);
      resolve();
    }
    client.once('ready', done);
  });
}
