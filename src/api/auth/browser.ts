// Browser sign-in (OAuth 2.0 implicit flow, as the spec names it): a one-shot listener on
// 127.0.0.1 is the redirect URI. The authorization server redirects the browser to
// http://127.0.0.1:<port>/callback#access_token=...&state=...; a fragment never reaches a server,
// so the listener serves a small page whose script POSTs the fragment back to the listener.
// The answer is accepted once, only with the state this process generated, only from the
// listener's own origin, and only before the deadline. No terminal output here: the caller is
// told the address to open through `onUrl`.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthError, InterruptedError, UsageError, VxError } from '../../core/errors.js';
import { addSecret } from '../../core/redact.js';
import { oauthAdvice, type Authority } from './authority.js';
import type { Obtained } from './credentials.js';

export const CALLBACK_PATH = '/callback';

/** The page served at the redirect URI: hands the fragment to the listener, then says what happened. */
export const CALLBACK_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>vx sign-in</title></head>
<body><p id="m">Completing sign-in…</p>
<script>
const m = document.getElementById('m');
fetch(location.pathname, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: location.hash.slice(1) })
  .then((r) => r.text().then((t) => { m.textContent = t; }))
  .catch(() => { m.textContent = 'Sign-in could not be completed; return to the terminal.'; });
history.replaceState(null, '', location.pathname);
</script></body></html>
`;

export function authorizeUrl(auth: Authority, redirectUri: string, state: string): string {
  const q = new URLSearchParams({ client_id: auth.clientId, response_type: 'token', redirect_uri: redirectUri, scope: auth.scope, state });
  return `${auth.authorizeUrl}?${q.toString()}`;
}

/** Reads the fragment the page delivered; throws for a wrong state, an error answer or no token. */
export function parseFragment(fragment: string, expectedState: string): Obtained {
  const p = new URLSearchParams(fragment.replace(/^#/, ''));
  if (p.get('state') !== expectedState) {
    throw new AuthError('sign-in refused: the answer does not carry the state of this sign-in (a stale or forged redirect); nothing was stored; run the same `vx auth login` again');
  }
  const error = p.get('error');
  if (error) throw new AuthError(`sign-in failed: ${error}${p.get('error_description') ? `: ${p.get('error_description')}` : ''}`, { code: error, hint: oauthAdvice(error) });
  const accessToken = p.get('access_token');
  if (!accessToken) throw new AuthError('sign-in failed: the answer carries no access_token');
  addSecret(accessToken);
  const tokenType = p.get('token_type');
  if (tokenType && tokenType.toLowerCase() !== 'bearer') throw new AuthError(`sign-in failed: unsupported token_type "${tokenType}"`);
  const exp = p.get('expires_in');
  const expiresIn = exp !== null && /^\d+$/.test(exp) ? Number(exp) : undefined;
  return { accessToken, expiresIn };
}

function readBody(req: IncomingMessage, limit = 64 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new Error('too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export interface BrowserSignInOptions {
  /** how long to wait for the browser, in ms */
  timeoutMs: number;
  signal: AbortSignal;
  /** called once the listener is ready, with the address the person must open */
  onUrl: (url: string) => void | Promise<void>;
  /** for tests: a fixed state */
  state?: string;
  /** what the timeout message ends with (what else the person can do) */
  timeoutAdvice?: string;
}

/** The one answer a browser sign-in waits for: the browser's delivery, or a timeout or Ctrl-C (the first one counts). */
class PendingAnswer {
  readonly done: Promise<Obtained>;
  /** the origin of the page served here: the only one that may deliver the answer */
  origin = '';
  private finished = false;
  private settle!: { resolve: (o: Obtained) => void; reject: (e: unknown) => void };

  constructor(private readonly state: string) {
    this.done = new Promise<Obtained>((resolve, reject) => (this.settle = { resolve, reject }));
  }

  /** Ends the wait, unless it has ended already. */
  end(outcome: (settle: { resolve: (o: Obtained) => void; reject: (e: unknown) => void }) => void): void {
    if (this.finished) return;
    this.finished = true;
    outcome(this.settle);
  }

  private reply(res: ServerResponse, status: number, text: string, outcome: Parameters<PendingAnswer['end']>[0]): void {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', connection: 'close' });
    res.end(text);
    this.end(outcome);
  }

  /** The redirect listener: serves the page that posts the fragment back, and takes that post. */
  handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== CALLBACK_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }).end(CALLBACK_PAGE);
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'GET, POST' }).end();
      return;
    }
    // only the page served here (same origin) or a client without an Origin may deliver the answer
    const from = req.headers.origin;
    if (from !== undefined && from !== this.origin) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('forbidden');
      return;
    }
    if (this.finished) {
      res.writeHead(409, { 'content-type': 'text/plain' }).end('This sign-in has already been answered.');
      return;
    }
    readBody(req).then(
      (body) => {
        let got: Obtained;
        try {
          got = parseFragment(body, this.state);
        } catch (e) {
          this.reply(res, 400, `vx: ${(e as Error).message}. Return to the terminal.`, (s) => s.reject(e));
          return;
        }
        this.reply(res, 200, 'You are signed in to vx. You can close this window.', (s) => s.resolve(got));
      },
      () => res.writeHead(413).end(),
    );
  }
}

export async function browserSignIn(auth: Authority, opts: BrowserSignInOptions): Promise<Obtained> {
  const state = opts.state ?? randomBytes(16).toString('base64url');
  const answer = new PendingAnswer(state);
  const server = createServer((req, res) => answer.handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e) => reject(new UsageError(`cannot listen on 127.0.0.1 for the sign-in redirect: ${e.message}`)));
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  answer.origin = `http://127.0.0.1:${port}`;
  const redirectUri = `${answer.origin}${CALLBACK_PATH}`;
  const timer = setTimeout(() => {
    answer.end((s) => s.reject(new AuthError(`sign-in timed out after ${Math.round(opts.timeoutMs / 1000)} s without an answer from the browser; nothing was stored${opts.timeoutAdvice ? `; ${opts.timeoutAdvice}` : ''}`)));
  }, opts.timeoutMs);
  const onAbort = () => answer.end((s) => s.reject(new InterruptedError()));
  opts.signal.addEventListener('abort', onAbort, { once: true });
  try {
    await opts.onUrl(authorizeUrl(auth, redirectUri, state));
    return await answer.done;
  } catch (e) {
    if (e instanceof VxError) throw e;
    throw new AuthError(`sign-in failed: ${(e as Error).message}`);
  } finally {
    clearTimeout(timer);
    opts.signal.removeEventListener('abort', onAbort);
    server.close();
    server.closeIdleConnections();
  }
}
