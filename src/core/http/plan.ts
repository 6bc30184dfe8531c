// --dry-run: the request as it would go out, secrets masked, recorded instead of sent.
import { VxError } from '../errors.js';
import { parseExact } from '../json.js';
import { redact, redactHeaders } from '../redact.js';
import { sentUrl } from '../url.js';
import { checkPath, encode } from './outgoing.js';
import type { HttpRequest, RequestDescription } from './types.js';

/** Thrown by a request under --dry-run once it is recorded: nothing goes out, the command ends (exit 0). */
export class DryRunHalt extends VxError {
  override readonly exitCode = 0;
  constructor() {
    super('dry run');
  }
}

/** The request as --dry-run prints it, checked as a request that goes out is. */
export function describeRequest(req: HttpRequest, allowHttp: boolean | undefined): RequestDescription {
  checkPath(req.url);
  const { headers, body } = encode(req, allowHttp);
  // the URL exactly as it would go out (percent-encoding as the transports apply it)
  const d: RequestDescription = { method: req.method.toUpperCase(), url: redact(sentUrl(req.url)), headers: redactHeaders(headers, req.auth?.secretHeaders) };
  if (body !== undefined) {
    const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
    try {
      d.body = parseExact(redact(text));
    } catch {
      d.body = redact(text);
    }
  }
  return d;
}
