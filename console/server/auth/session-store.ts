/**
 * Server-side sessions. The browser holds only an opaque 256-bit id; the store keys records by the
 * id's SHA-256, so a leaked store reveals no usable cookie. Two stores: Redis (cluster mode: shared by
 * replicas, survives restarts, expiry by PX) and memory (optionally persisted to a file, mode 0600,
 * for local mode).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { waitUntilReady, type RedisClient } from '../../../store/connect-redis-client.js';
import { ConsoleError } from '../console-error.js';

export const sessionSchema = z.object({
  username: z.string(),
  groups: z.array(z.string()),
  csrfToken: z.string(),
  method: z.enum(['local', 'oidc']),
  createdAt: z.number(),
  lastSeenAt: z.number(),
});
export type Session = z.infer<typeof sessionSchema>;

/** A sign-in in progress at the OIDC provider. */
export const pendingOidcSchema = z.object({
  codeVerifier: z.string(),
  state: z.string(),
  nonce: z.string(),
  returnTo: z.string(),
});
export type PendingOidc = z.infer<typeof pendingOidcSchema>;

export interface SessionStore {
  get(kind: 'session' | 'oidc', id: string): Promise<unknown>;
  set(record: {
    kind: 'session' | 'oidc';
    id: string;
    value: unknown;
    ttlMs: number;
  }): Promise<void>;
  delete(kind: 'session' | 'oidc', id: string): Promise<void>;
  close(): Promise<void>;
}

export function newOpaqueId(): string {
  return randomBytes(32).toString('base64url');
}

function storeKey(kind: string, id: string): string {
  return `${kind}:${createHash('sha256').update(id).digest('base64url')}`;
}

/** How long a call waits for Redis to (re)connect before answering 503 SESSIONS_UNAVAILABLE. */
const REDIS_WAIT_MS = 2_000;

export class RedisSessionStore implements SessionStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix = 'tg:console:',
  ) {}

  /**
   * The client has no offline queue: a command sent while it connects (just after start) or
   * reconnects would fail at once, so each call waits for the connection first.
   */
  private async command<T>(operation: (redis: RedisClient) => Promise<T>): Promise<T> {
    try {
      await waitUntilReady(this.redis, REDIS_WAIT_MS);
      return await operation(this.redis);
    } catch (error) {
      throw new ConsoleError(
        'SESSIONS_UNAVAILABLE',
        'The session store (Redis) is unavailable; try again shortly.',
        { cause: error },
      );
    }
  }

  async get(kind: 'session' | 'oidc', id: string): Promise<unknown> {
    const text = await this.command((redis) => redis.get(this.prefix + storeKey(kind, id)));
    return text === null ? undefined : (JSON.parse(text) as unknown);
  }

  async set(record: { kind: 'session' | 'oidc'; id: string; value: unknown; ttlMs: number }) {
    const key = this.prefix + storeKey(record.kind, record.id);
    const text = JSON.stringify(record.value);
    await this.command((redis) => redis.set(key, text, 'PX', Math.max(1, record.ttlMs)));
  }

  async delete(kind: 'session' | 'oidc', id: string): Promise<void> {
    await this.command((redis) => redis.del(this.prefix + storeKey(kind, id)));
  }

  close(): Promise<void> {
    this.redis.disconnect();
    return Promise.resolve();
  }
}

const persistedSchema = z.record(
  z.string(),
  z.object({ value: z.unknown(), expiresAt: z.number() }),
);

export class MemorySessionStore implements SessionStore {
  private readonly entries = new Map<string, { value: unknown; expiresAt: number }>();

  constructor(
    private readonly file?: string,
    private readonly now: () => number = Date.now,
  ) {
    if (file === undefined) return;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return;
    }
    const parsed = persistedSchema.safeParse(JSON.parse(text));
    if (!parsed.success) return;
    for (const [key, entry] of Object.entries(parsed.data)) {
      if (entry.expiresAt > this.now()) this.entries.set(key, entry);
    }
  }

  get(kind: 'session' | 'oidc', id: string): Promise<unknown> {
    const key = storeKey(kind, id);
    const entry = this.entries.get(key);
    if (entry === undefined) return Promise.resolve(undefined);
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return Promise.resolve(undefined);
    }
    return Promise.resolve(entry.value);
  }

  set(record: { kind: 'session' | 'oidc'; id: string; value: unknown; ttlMs: number }) {
    this.entries.set(storeKey(record.kind, record.id), {
      value: record.value,
      expiresAt: this.now() + record.ttlMs,
    });
    this.persist();
    return Promise.resolve();
  }

  delete(kind: 'session' | 'oidc', id: string): Promise<void> {
    this.entries.delete(storeKey(kind, id));
    this.persist();
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.persist();
    return Promise.resolve();
  }

  private persist(): void {
    if (this.file === undefined) return;
    const now = this.now();
    const live = [...this.entries].filter(([, entry]) => entry.expiresAt > now);
    mkdirSync(dirname(this.file), { recursive: true });
    const temporary = `${this.file}.tmp`;
    writeFileSync(temporary, JSON.stringify(Object.fromEntries(live)), { mode: 0o600 });
    renameSync(temporary, this.file);
  }
}
