// The binary's usage errors outside any one family, run in-process (test/helpers/inproc.ts): exit
// 2, the message, no stack, nothing sent (the httpmock registry has no stubs). Moved from
// e2e/core-cli, which keeps one spawned case for the exit code of the real process.
import { describe, expect, it } from 'vitest';
import { json } from '../helpers/httpmock.js';
import { offlineEnv, runInProc } from '../helpers/inproc.js';

const env = offlineEnv();
const noStack = (s: string) => expect(s).not.toMatch(/\n\s+at .*:\d+/);

describe('usage errors exit 2 and send nothing', () => {
  const cases: [string, string[], RegExp][] = [
    ['unknown command', ['frobnicate'], /unknown command 'frobnicate'/],
    ['unknown option', ['--frob'], /unknown option '--frob'/],
    ['a command group without its subcommand', ['profile'], /Usage: vx profile \[options\] \[command\]/],
    ['unknown subcommand option', ['api', 'GET', '/x', '--service', 'erp', '--nope'], /unknown option '--nope'/],
    ['missing required option', ['api', 'GET', '/x'], /required option '--service <name>' not specified/],
    ['invalid choice', ['api', 'GET', '/x', '--service', 'ftp'], /^vx: option '--service <name>' argument 'ftp' is invalid; allowed: translator, erp, lcs, mgmt \(run `vx api --help` for usage\)\n$/],
    ['missing argument', ['profile', 'set'], /missing required argument 'key'/],
    ['invalid output format', ['-o', 'xml', 'api', 'GET', '/x', '--service', 'erp'], /^vx: invalid output format "xml"; allowed: json, yaml, table, wide, tsv, csv, ndjson, text, none$/m],
    ['invalid --timeout', ['--timeout', 'soon', 'api', 'GET', '/x', '--service', 'erp'], /invalid value "soon" for --timeout: expected a number from 0.001 to 86400/],
    ['invalid --retries', ['--retries', '-1', 'api', 'GET', '/x', '--service', 'erp'], /invalid value "-1" for --retries/],
    ['invalid --query', ['-q', '[?', 'api', 'GET', '/api/v2.0/companies', '--service', 'erp'], /invalid --query expression "\[\?"/],
    // a misspelt function was found only on the result, after the request (a create) was made
    ['--query with an unknown function', ['-q', '[?lenght(code) > `2`]', 'api', 'POST', '/x', '--service', 'erp', '--data', '{}'], /^vx: invalid --query expression "\[\?lenght\(code\) > `2`\]": unknown function lenght\(\)\n$/],
    ['--query calling a function with too many arguments', ['-q', 'length(@, @)', 'api', 'POST', '/x', '--service', 'erp', '--data', '{}'], /^vx: invalid --query expression "length\(@, @\)": length\(\) takes 1 argument, not 2\n$/],
    ['--query calling a function with too few arguments', ['-q', 'join(`", "`)', 'api', 'POST', '/x', '--service', 'erp', '--data', '{}'], /^vx: invalid --query expression "join\(`", "`\)": join\(\) takes 2 arguments, not 1\n$/],
    ['invalid method', ['api', 'FETCH', '/x', '--service', 'erp'], /invalid method "FETCH"/],
    ['foreign absolute URL', ['api', 'GET', 'http://127.0.0.2:9/x', '--service', 'erp'], /is not on the configured endpoint .*; vx sends credentials only there/],
    ['bad header', ['api', 'GET', '/x', '--service', 'erp', '-H', 'nocolon'], /invalid --header "nocolon": expected key:value/],
    // was "vx: Invalid URL", exit 1 (a service failure); and a line ending in the path was dropped silently
    ['malformed absolute URL', ['api', 'GET', 'http://[::1', '--service', 'erp'], /^vx: invalid URL "http:\/\/\[::1": give a path such as \/api\/v2\.0\/companies or an absolute URL on the configured endpoint\n$/],
    // `vx api DELETE "$ID_PATH"` with the variable unset went to the endpoint itself
    ['an empty path', ['api', 'DELETE', '', '--service', 'erp'], /^vx: the path is empty \(an unset variable\?\): give a path such as \/api\/v2\.0\/companies; nothing was sent\n$/],
    ['a line ending in the path', ['api', 'GET', '/x\r', '--service', 'erp'], /^vx: the path "\/x\\r" holds a control character \(a line ending\?\); nothing was sent\n$/],
    // the rest of a malformed header may be a key: never repeated (was printed whole)
    ['bad header holding a key', ['api', 'GET', '/x', '--service', 'erp', '-H', 'X-Api-Key=sk-live-0123456789'], /^vx: invalid --header "X-Api-Key…": expected key:value\n$/],
    ['bad header name holding a key', ['api', 'GET', '/x', '--service', 'erp', '-H', 'X-Api-Key sk-live-0123456789: x'], /^vx: invalid header name "X-Api-Key…"\n$/],
    // framing and connection headers are vx's to write: a Content-Length that disagrees with the body
    // left the service waiting for bytes (a "timeout" after every retry) or read the rest of the body
    // as the next request on the connection
    ['a Content-Length header', ['api', 'GET', '/x', '--service', 'erp', '-H', 'Content-Length: 5'], /^vx: --header Content-Length: vx sets it from the request itself \(the body, the connection\); leave it out\n$/],
    ['a Transfer-Encoding header', ['api', 'POST', '/x', '--service', 'erp', '-H', 'transfer-encoding: chunked', '--data', '{}'], /^vx: --header transfer-encoding: vx sets it from the request itself/],
    ['an Expect header', ['api', 'POST', '/x', '--service', 'erp', '-H', 'Expect: 100-continue', '--data', '{}'], /^vx: --header Expect: vx sends the body at once and does not wait for 100 Continue; leave it out\n$/],
    ['missing data file', ['api', 'POST', '/x', '--service', 'erp', '--data', '@/nonexistent/file.json'], /cannot read \/nonexistent\/file.json: no such file/],
    // was "cannot read : no such file"
    ['--data @ without a path', ['api', 'POST', '/x', '--service', 'erp', '--data', '@'], /^vx: --data @ names no file: give @<path>, or - \(or @-\) for standard input; nothing was sent\n$/],
    ['--paginate with POST', ['api', 'POST', '/x', '--service', 'erp', '--paginate'], /--paginate works with GET only/],
    ['unknown setting', ['profile', 'set', 'no.such', 'x'], /unknown setting "no.such"/],
    ['unknown shell', ['completion', 'tcsh'], /value 'tcsh' is invalid for argument 'shell'/],
    // a shell with --write was accepted and ignored (all four scripts were written)
    ['a shell with --write', ['completion', 'bash', '--write', '/tmp/vx-never-written'], /^vx: --write writes the scripts of all four shells: give a shell or --write <dir>, not both\n$/],
    // was "vx: EEXIST: file already exists, mkdir ...", exit 1
    ['--write naming a file', ['completion', '--write', '/dev/null'], /^vx: cannot write completions to \/dev\/null: it is not a directory\n$/],
  ];
  for (const [name, args, re] of cases) {
    it(name, async () => {
      const r = await runInProc(args, { env });
      expect(r.stderr).toMatch(re);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      noStack(r.stderr);
      expect(r.http.requests).toEqual([]);
    });
  }

  it('VX_OUTPUT with an invalid format is a usage error too', async () => {
    const r = await runInProc(['api', 'GET', '/api/v2.0/companies', '--service', 'erp'], { env: { ...env, VX_OUTPUT: 'xml' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invalid output format "xml"/);
    expect(r.http.requests).toEqual([]);
  });

  it('a missing credential is exit 3 and a missing endpoint exit 2, nothing sent', async () => {
    const { VX_ERP_TOKEN: _t, ...noToken } = env;
    const a = await runInProc(['api', 'GET', '/api/v2.0/companies', '--service', 'erp'], { env: noToken });
    expect(a.code).toBe(3);
    expect(a.stderr).toMatch(/^vx: no credentials configured: business-data bearer token is not set; set VX_ERP_TOKEN or run `vx profile set erp.token <value>`/);
    expect(a.http.requests).toEqual([]);
    const { VX_MGMT_ENDPOINT: _e, ...noEndpoint } = env;
    const b = await runInProc(['api', 'GET', '/x', '--service', 'mgmt'], { env: noEndpoint });
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/management endpoint .* is not set: set VX_MGMT_ENDPOINT/);
    expect(b.http.requests).toEqual([]);
  });
});

// vx api with an answer that is not JSON: --query was ignored (the whole text printed, exit 0, so
// `id=$(vx api ... -q id)` got a page of HTML), -o none printed it anyway, and a binary answer
// (a PDF) was decoded as UTF-8 and written with a line feed added: every byte above 0x7f lost
// curl's habit: `-d @-` reads standard input (it was taken as a file named "-")
it('vx api --data @- reads standard input, as - does', async () => {
  const r = await runInProc(['api', 'POST', '/x', '--service', 'erp', '--data', '@-'], {
    env,
    stdin: '{"a":1}',
    setup: (t) => t.http.stub('POST', 'http://127.0.0.1:9/erp/x', { status: 204 }),
  });
  expect([r.code, r.stderr, r.http.requests[0]?.text]).toEqual([0, '', '{"a":1}']);
});

// --paginate on a single resource said "the service answered a list request without a value array",
// exit 1, as if the service had failed
it('vx api --paginate on an answer that is not a list: exit 2 saying to leave --paginate out', async () => {
  const r = await runInProc(['api', 'GET', '/x', '--service', 'erp', '--paginate'], { env, setup: (t) => t.http.stub('GET', 'http://127.0.0.1:9/erp/x', json(200, { id: 'c1', name: 'one' })) });
  expect(r.stderr).toBe('vx: --paginate reads lists (a "value" array and its next links); this answer is not one: leave out --paginate (the request itself was sent and succeeded)\n');
  expect([r.code, r.stdout]).toEqual([2, '']);
});

describe('vx api with an answer that is not JSON', () => {
  const URL_X = 'http://127.0.0.1:9/erp/x';
  const text = (body: string | Uint8Array, type: string) => ({ status: 200, headers: { 'content-type': type }, body });

  it('--query is exit 2 naming the answer type; the answer is not printed', async () => {
    const r = await runInProc(['api', 'GET', '/x', '--service', 'erp', '-q', 'id'], { env, setup: (t) => t.http.stub('GET', URL_X, text('<html>hi</html>', 'text/html')) });
    expect(r.stderr).toBe('vx: --query needs a JSON answer; this one is text/html (15 bytes), not shown (the request itself was sent and succeeded)\n');
    expect([r.code, r.stdout, r.http.requests.length]).toEqual([2, '', 1]);
  });

  it('--query on HEAD (an answer without a body) is refused before sending', async () => {
    const r = await runInProc(['api', 'HEAD', '/x', '--service', 'erp', '-q', 'id'], { env });
    expect(r.stderr).toBe('vx: --query does not apply to HEAD: its answer has no body; nothing was done\n');
    expect([r.code, r.http.requests]).toEqual([2, []]);
  });

  it('-o none prints nothing, as for JSON', async () => {
    const r = await runInProc(['api', 'GET', '/x', '--service', 'erp', '-o', 'none'], { env, setup: (t) => t.http.stub('GET', URL_X, text('hello', 'text/plain')) });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
  });

  // a text answer that begins with [ or { was parsed as JSON (exit 1, "not valid JSON")
  it('a text answer that begins with a bracket is text', async () => {
    const r = await runInProc(['api', 'GET', '/x', '--service', 'erp'], { env, setup: (t) => t.http.stub('GET', URL_X, text('[INFO] started\n{ready}', 'text/plain; charset=utf-8')) });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '[INFO] started\n{ready}\n', '']);
  });

  it('JSON without a content type is still read as JSON', async () => {
    const r = await runInProc(['api', 'GET', '/x', '--service', 'erp', '-q', 'a'], { env, setup: (t) => t.http.stub('GET', URL_X, { status: 200, body: '{"a":1}' }) });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '1\n', '']);
  });

  it('text is printed with a final line feed', async () => {
    const r = await runInProc(['api', 'GET', '/x', '--service', 'erp'], { env, setup: (t) => t.http.stub('GET', URL_X, text('a,b\n1,2', 'text/csv')) });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, 'a,b\n1,2\n', '']);
  });

  it('a binary answer is written byte for byte', async () => {
    const pdf = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0x01, 0xff, 0xfe, 0x80, 0x0a, 0xc3]);
    const r = await runInProc(['api', 'GET', '/x', '--service', 'erp'], { env, setup: (t) => t.http.stub('GET', URL_X, text(pdf, 'application/pdf')) });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdoutBytes.equals(pdf)).toBe(true);
  });

  it('bytes that are not UTF-8 are written as received whatever their declared type', async () => {
    const latin1 = Buffer.from('caf\xe9\n', 'latin1');
    const r = await runInProc(['api', 'GET', '/x', '--service', 'erp'], { env, setup: (t) => t.http.stub('GET', URL_X, text(latin1, 'text/plain; charset=iso-8859-1')) });
    expect(r.stdoutBytes.equals(latin1)).toBe(true);
  });
});

describe('help', () => {
  it('profile set|unset --help list every setting key with its variable', async () => {
    const { SETTINGS } = await import('../../src/api/settings.js');
    for (const verb of ['set', 'unset']) {
      const r = await runInProc(['profile', verb, '--help']);
      expect(r.code).toBe(0);
      const section = r.stdout.slice(r.stdout.indexOf('\nSettings:\n'));
      for (const d of SETTINGS.filter((x) => !x.internal)) expect(section).toMatch(new RegExp(`\\n  ${d.key.replace('.', '\\.')}${d.env ? ` +env ${d.env}` : ''}[ ,\\n]`));
      // the records auth login writes are not settings
      expect(section).not.toMatch(/signIn|refreshToken/);
      expect(section).toContain('\n  erp.token            env VX_ERP_TOKEN, secret\n');
      expect(section).toContain('\n  output               one of json, yaml, table, wide, tsv, csv, ndjson, text, none\n');
    }
  });

});
