/**
 * A plain in-process connection to the control plane, for the parts of `tollgate local` that run in
 * its process (the operator). Each connection is a pair of in-memory streams: the client end goes
 * to `node:http`'s client through an Agent, the server end is handed to an HTTP server (not
 * listening) that serves requests with the same handler as the HTTPS port. So a request is still an
 * HTTP request with its bearer token, and still goes through authentication, RBAC, admission and
 * validation; only TLS and the kernel's sockets are gone (on a bulk import they cost more than the
 * control plane's own work, on both ends).
 *
 * `inProcessKubeConfig` gives a view of a KubeConfig whose every API call (@kubernetes/client-node's
 * generated clients and its watches) goes through such an Agent: the code that uses it is the code
 * that runs in a cluster.
 */
import { Agent, type AgentOptions, type Server } from 'node:http';
import { Duplex } from 'node:stream';
import type { Cluster, KubeConfig } from '@kubernetes/client-node';

/**
 * One end of an in-memory connection; what `node:http` calls on a socket is accepted and ignored.
 * Writes reach the peer on a later turn of the event loop, all of one turn together, as from a real
 * socket: a writer never runs its reader's code inside its own write (a watch event published to
 * the operator does not delay the reply to the request that caused it).
 */
class MemorySocket extends Duplex {
  peer: MemorySocket | null = null;
  private outbox: Buffer[] = [];
  /** The callbacks of the writes in `outbox`, called once they are delivered. */
  private written: ((error?: Error | null) => void)[] = [];
  private scheduled = false;
  readonly remoteAddress = '127.0.0.1';
  readonly remotePort = 0;
  readonly localAddress = '127.0.0.1';
  readonly localPort = 0;
  readonly remoteFamily = 'IPv4';
  readonly encrypted = false;

  override _read(): void {
    // Pushes are not held back: the peer's writes are bounded by its own writable buffer.
  }

  override _writev(
    chunks: { chunk: Buffer | string; encoding: BufferEncoding }[],
    callback: (error?: Error | null) => void,
  ): void {
    for (const { chunk, encoding } of chunks) {
      this.outbox.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
    }
    this.written.push(callback);
    this.schedule();
  }

  override _write(
    chunk: Buffer | string,
    encoding: BufferEncoding,
    callback: (error?: Error | null) => void,
  ): void {
    this._writev([{ chunk, encoding }], callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.written.push(() => {
      this.peer?.push(null);
      callback();
    });
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.deliver();
    });
  }

  private deliver(): void {
    this.scheduled = false;
    const chunks = this.outbox;
    const callbacks = this.written;
    this.outbox = [];
    this.written = [];
    const peer = this.peer;
    if (peer === null || peer.destroyed) {
      const error = new Error('the in-process connection is closed');
      for (const callback of callbacks) callback(error);
      return;
    }
    if (chunks.length === 1 && chunks[0] !== undefined) peer.push(chunks[0]);
    else if (chunks.length > 1) peer.push(Buffer.concat(chunks));
    for (const callback of callbacks) callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const peer = this.peer;
    this.peer = null;
    if (peer !== null && !peer.destroyed) peer.destroy();
    callback(error);
  }

  setKeepAlive(): this {
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setTimeout(_ms: number, callback?: () => void): this {
    if (callback !== undefined) this.once('timeout', callback);
    return this;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }

  address(): { address: string; family: string; port: number } {
    return { address: '127.0.0.1', family: 'IPv4', port: 0 };
  }
}

/** A connected pair: what one end writes, the other reads. */
export function memorySocketPair(): [MemorySocket, MemorySocket] {
  const client = new MemorySocket();
  const server = new MemorySocket();
  client.peer = server;
  server.peer = client;
  return [client, server];
}

/** Opens a connection to `server` (an HTTP server that need not listen). */
export function connectInProcess(server: Server): Duplex {
  const [client, serverEnd] = memorySocketPair();
  server.emit('connection', serverEnd);
  return client;
}

/**
 * An Agent whose connections are in-process ones. It speaks for the API's `https:` URL (the one in
 * the kubeconfig), so clients need no other address; nothing is encrypted because nothing leaves
 * the process.
 */
export class InProcessAgent extends Agent {
  private readonly connect: () => Duplex;

  constructor(connect: () => Duplex, options: AgentOptions = {}) {
    // No limit: a connection costs two stream objects, and requests never wait in the agent's
    // queue (a queued request that is aborted can leave node:http's agent in a broken state).
    super({ keepAlive: true, maxSockets: Infinity, ...options });
    this.connect = connect;
    (this as unknown as { protocol: string }).protocol = 'https:';
  }

  override createConnection(): Duplex {
    return this.connect();
  }
}

type CreateAgent = (cluster: Cluster | null, options: Record<string, unknown>) => Agent;

/**
 * A view of `kubeConfig` (same user and token, same server URL) whose API calls go through `agent`.
 * The caller's KubeConfig is left as it is.
 */
export function inProcessKubeConfig(kubeConfig: KubeConfig, agent: Agent): KubeConfig {
  const view = Object.create(kubeConfig) as KubeConfig;
  const createAgent: CreateAgent = () => agent;
  (view as unknown as { createAgent: CreateAgent }).createAgent = createAgent;
  return view;
}
