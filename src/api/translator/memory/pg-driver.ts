// The part of node-postgres (the `pg` package) vx uses; store-pg.ts and pg-schema.ts speak to it through these.
export interface PgQuery {
  name?: string;
  text: string;
  values?: unknown[];
}
export interface PgResult {
  rows: Record<string, unknown>[];
}
export interface PgClient {
  query(q: PgQuery | string, values?: unknown[]): Promise<PgResult>;
  connect(): Promise<void>;
  end(): Promise<void>;
  on(event: 'error', listener: (e: Error) => void): void;
  connection?: { stream?: { destroy(): void } };
}
export interface PgPoolClient {
  query(q: PgQuery): Promise<PgResult>;
  release(destroy?: Error): void;
  on(event: 'error', listener: (e: Error) => void): void;
  removeListener(event: 'error', listener: (e: Error) => void): void;
}
export interface PgPool {
  connect(): Promise<PgPoolClient>;
  end(): Promise<void>;
  on(event: 'error', listener: (e: Error) => void): void;
}
export interface PgModule {
  Pool: new (config: Record<string, unknown>) => PgPool;
  Client: new (config: Record<string, unknown>) => PgClient;
}
