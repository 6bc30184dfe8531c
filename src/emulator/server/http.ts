// The emulator's side of HTTP: a request body read within a limit, a reply written with its length.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EmuReply } from './types.js';

/** The whole body, or 'too-large' (read to its end all the same, so the connection stays usable). */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > limit) tooLarge = true;
    if (!tooLarge) chunks.push(c as Buffer);
  }
  return tooLarge ? 'too-large' : Buffer.concat(chunks);
}

export function send(res: ServerResponse, reply: EmuReply, extraHeaders: Record<string, string>): void {
  const headers: Record<string, string | number | string[]> = { ...extraHeaders, ...(reply.headers ?? {}) };
  let payload: Buffer | undefined;
  if (reply.raw !== undefined) payload = Buffer.isBuffer(reply.raw) ? reply.raw : Buffer.from(reply.raw);
  else if (reply.body !== undefined) {
    payload = Buffer.from(JSON.stringify(reply.body));
    headers['content-type'] ??= 'application/json; charset=utf-8';
  }
  if (payload) headers['content-length'] = payload.length;
  else if (reply.status !== 204 && reply.status !== 304) headers['content-length'] = 0;
  res.writeHead(reply.status, headers);
  res.end(payload);
}

/** A reply in the emulator's own error shape (for what no family answers). */
export function plainError(status: number, code: string, message: string): EmuReply {
  return { status, body: { error: { code, message } } };
}
