/** The part of the `oidc-provider` package (no bundled types) that the console tests use. */
declare module 'oidc-provider' {
  import type { Server } from 'node:http';

  export interface ProviderAccount {
    accountId: string;
    claims(use: string): Record<string, unknown>;
  }

  export interface ProviderConfiguration {
    clients: Record<string, unknown>[];
    claims: Record<string, string[]>;
    findAccount(context: unknown, id: string): ProviderAccount | undefined;
    conformIdTokenClaims?: boolean;
    pkce?: { required(): boolean };
    features?: Record<string, { enabled: boolean }>;
    cookies?: { keys: string[] };
  }

  export default class Provider {
    constructor(issuer: string, configuration: ProviderConfiguration);
    listen(port: number, host: string): Server;
  }
}
