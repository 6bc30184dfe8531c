// node-postgres ships no types: store-pg.ts declares the part of it vx uses (PgModule) and casts.
declare module 'pg';
