// The emulated translation service on its own (what vx never sends on purpose): validation with
// the real 6-digit codes, the limits, response headers, detection, profanity, HTML, scripts.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';

const e2e = useEmulator();
const KEY = { 'vendor-subscription-key': 'emulator-key' };
const JSON_CT = { 'content-type': 'application/json; charset=UTF-8' };

async function post(query: string, body: unknown, headers: Record<string, string> = { ...KEY, ...JSON_CT }) {
  const res = await fetch(`${e2e.env.VX_TRANSLATOR_ENDPOINT}/translate${query}`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}
const items = (...t: string[]) => t.map((Text) => ({ Text }));

describe('emulated translator: validation and errors', () => {
  const cases: [string, string, unknown, number, number][] = [
    ['missing api-version', '?to=de', items('a'), 400, 400021],
    ['wrong api-version', '?api-version=2.0&to=de', items('a'), 400, 400021],
    ['missing to', '?api-version=3.0', items('a'), 400, 400036],
    ['unsupported to', '?api-version=3.0&to=xx', items('a'), 400, 400036],
    ['unsupported from', '?api-version=3.0&to=de&from=qq', items('a'), 400, 400035],
    ['bad textType', '?api-version=3.0&to=de&textType=xml', items('a'), 400, 400071],
    ['bad profanityAction', '?api-version=3.0&to=de&profanityAction=Hide', items('a'), 400, 400042],
    ['bad includeAlignment', '?api-version=3.0&to=de&includeAlignment=yes', items('a'), 400, 400042],
    ['bad toScript', '?api-version=3.0&to=de&toScript=Latin', items('a'), 400, 400004],
    ['toScript count', '?api-version=3.0&to=de&to=fr&toScript=Latn', items('a'), 400, 400070],
    ['unsupported transliteration', '?api-version=3.0&to=de&toScript=Hang', items('a'), 400, 400080],
    ['bad fromScript', '?api-version=3.0&to=de&fromScript=L1', items('a'), 400, 400018],
    ['bad ClientTraceId', '?api-version=3.0&to=de&ClientTraceId=nope', items('a'), 400, 400043],
    ['body not JSON', '?api-version=3.0&to=de', '[{"Text":', 400, 400074],
    ['body not an array', '?api-version=3.0&to=de', { Text: 'a' }, 400, 400000],
    ['element without Text', '?api-version=3.0&to=de', [{ Txt: 'a' }], 400, 400005],
    ['1,001 items', '?api-version=3.0&to=de', items(...Array(1001).fill('a')), 400, 400072],
    ['an item of 50,001 characters', '?api-version=3.0&to=de', items('a'.repeat(50_001)), 400, 400050],
    ['50,001 characters in the request', '?api-version=3.0&to=de', items('a'.repeat(25_000), 'b'.repeat(25_001)), 400, 400077],
    ['25,001 characters to two targets', '?api-version=3.0&to=de&to=fr', items('a'.repeat(25_001)), 400, 400077],
    ['no custom system with allowFallback=false', '?api-version=3.0&to=de&from=en&category=nosuch-TECH&allowFallback=false', items('a'), 400, 400079],
    ['a custom system being prepared', '?api-version=3.0&to=de&from=en&category=0000c0de-0000-4000-8000-00000000c002-LEGAL', items('a'), 408, 408001],
  ];
  for (const [name, query, body, status, code] of cases) {
    it(`${name}: ${status} ${code}`, async () => {
      const r = await post(query, body);
      expect(r.status).toBe(status);
      expect(r.body.error.code).toBe(code);
      expect(typeof r.body.error.message).toBe('string');
      expect(r.headers.get('x-requestid')).toMatch(/^TRAN\.EMU1\.[0-9A-F]{4}\.\d{4}T\d{4}\.[0-9A-F]{6}$/);
    });
  }

  it('limits are inclusive: 1,000 items and 50,000 counted characters are accepted', async () => {
    expect((await post('?api-version=3.0&to=de&from=en', items(...Array(1000).fill('a')))).status).toBe(200);
    expect((await post('?api-version=3.0&to=de&from=en', items('a'.repeat(25_000), 'b'.repeat(25_000)))).status).toBe(200);
    expect((await post('?api-version=3.0&to=de&to=fr&from=en', items('a'.repeat(25_000)))).status).toBe(200);
  });

  it('authentication: a missing or wrong key is 401 401000; content type is checked (415000)', async () => {
    const none = await post('?api-version=3.0&to=de', items('a'), JSON_CT);
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe(401000);
    expect((await post('?api-version=3.0&to=de', items('a'), { ...JSON_CT, 'vendor-subscription-key': 'bad' })).body.error.code).toBe(401000);
    const ct = await post('?api-version=3.0&to=de', items('a'), { ...KEY, 'content-type': 'text/plain' });
    expect(ct.status).toBe(415);
    expect(ct.body.error.code).toBe(415000);
  });

  it('another method on /translate is 405 405000 with the Allow header HTTP requires', async () => {
    const res = await fetch(`${e2e.env.VX_TRANSLATOR_ENDPOINT}/translate?api-version=3.0&to=de`, { headers: KEY });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(res.headers.get('x-requestid')).toMatch(/^TRAN\./);
    expect((await res.json()).error.code).toBe(405000);
  });
});

describe('emulated translator: injected faults', () => {
  it('answer with the 6-digit code of their status (status + 3 digits), Retry-After on 429/503, and X-RequestId', async () => {
    for (const status of [403, 408, 429, 500, 503]) {
      e2e.emu.setFaults(`translator/${status}:1x,retry-after:7`);
      const r = await post('?api-version=3.0&to=de', items('a'));
      expect(r.status).toBe(status);
      expect(r.body).toEqual({ error: { code: status * 1000, message: `emulated fault: HTTP ${status}` } });
      expect(r.headers.get('retry-after')).toBe(status === 429 || status === 503 ? '7' : null);
      expect(r.headers.get('x-requestid')).toMatch(/^TRAN\.EMU1\.[0-9A-F]{4}\.\d{4}T\d{4}\.[0-9A-F]{6}$/);
    }
  });
});

describe('emulated translator: every documented error code can be injected', () => {
  // notes.md: the useful codes; the messages are the service's published ones
  const documented: [number, RegExp][] = [
    [400000, /One of the request inputs is not valid/],
    [400021, /API version parameter is missing or invalid/],
    [400035, /source language \("From" field\) is not valid/],
    [400036, /target language \("To" field\) is missing or invalid/],
    [400050, /input text is too long/],
    [400070, /number of target scripts/],
    [400072, /array of input text has too many elements/],
    [400074, /body of the request is not valid JSON/],
    [400077, /maximum request size has been exceeded/],
    [400079, /custom system requested .* does not exist/],
    [401000, /credentials are missing or invalid/],
    [403001, /exceeded its free quota/],
    [408001, /being prepared/],
    [415000, /Content-Type header is missing or invalid/],
    [429000, /exceeded request limits/],
    [429001, /exceeded request limits/],
    [429002, /exceeded request limits/],
    [500000, /unexpected error/],
    [503000, /temporarily unavailable/],
  ];
  it('answers its status, that code, the published message, and Retry-After on 429/503', async () => {
    for (const [code, message] of documented) {
      e2e.emu.setFaults(`${code}:1x,retry-after:3`);
      const r = await post('?api-version=3.0&to=de&from=en', items('a'));
      const status = Math.floor(code / 1000);
      expect(r.status, String(code)).toBe(status);
      expect(r.body.error.code, String(code)).toBe(code);
      expect(r.body.error.message, String(code)).toMatch(message);
      expect(r.headers.get('retry-after'), String(code)).toBe(status === 429 || status === 503 ? '3' : null);
      expect(r.headers.get('x-requestid')).toMatch(/^TRAN\.EMU1\./);
      // used up: the next request is answered
      expect((await post('?api-version=3.0&to=de&from=en', items('a'))).status).toBe(200);
    }
  });

  it('vx maps each to its exit code and names the code and the message (403001: exit 3, the free quota)', async () => {
    const cases: [string, number][] = [
      ['403001:1x', 3],
      ['401000:1x', 3],
      ['400036:1x', 1],
      ['415000:1x', 1],
      ['408001:1x', 7],
      ['429002:1x', 6],
      ['503000:1x', 7],
    ];
    for (const [spec, exit] of cases) {
      e2e.emu.setFaults(spec);
      const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--retries', '0', 'Hello']);
      const code = spec.slice(0, 6);
      expect(r.code, spec).toBe(exit);
      expect(r.stdout).toBe('');
      expect(r.stderr, spec).toMatch(new RegExp(`^vx: HTTP ${code.slice(0, 3)} [A-Za-z ]+ ${code}: .+ \\(request id TRAN\\.EMU1\\.`));
    }
    e2e.emu.setFaults('403001:1x');
    const before = e2e.emu.log.filter((l) => l.family === 'translator').length;
    const quota = await e2e.run(['translate', '--to', 'de', '--from', 'en', 'Hello']);
    expect(quota.code).toBe(3);
    expect(quota.stderr).toContain('HTTP 403 Forbidden 403001: The operation is not allowed because the subscription has exceeded its free quota.');
    // not retried: a used-up quota does not come back in seconds
    expect(e2e.emu.log.filter((l) => l.family === 'translator').length).toBe(before + 1);
  });
});

describe('emulated translator: answers', () => {
  it('answers the three headers; Text and text are both accepted', async () => {
    const r = await post('?api-version=3.0&to=de&to=fr&from=en', [{ Text: 'Hello' }, { text: 'world' }]);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-requestid')).toMatch(/^TRAN\.EMU1\.[0-9A-F]{4}\.\d{4}T\d{4}\.[0-9A-F]{6}$/);
    // one entry per translation (2 items x 2 targets), as the recorded sessions show
    expect(r.headers.get('x-mt-system')).toBe('Microsoft,Microsoft,Microsoft,Microsoft');
    expect(r.headers.get('x-metered-usage')).toBe('20');
    // the CORS and transport headers of the recorded sessions (recording_translate_basic.json)
    expect(r.headers.get('access-control-expose-headers')).toBe('X-RequestId, X-Metered-Usage');
    expect(r.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.body).toEqual([
      { translations: [{ to: 'de', text: '[de] Ĥéļļö' }, { to: 'fr', text: '[fr] Ĥéļļö' }] },
      { translations: [{ to: 'de', text: '[de] ŵöŕļð' }, { to: 'fr', text: '[fr] ŵöŕļð' }] },
    ]);
  });

  it('detects the source language with a detector when from is absent (detectedLanguage only then)', async () => {
    const r = await post('?api-version=3.0&to=en', items('Guten Morgen, wie geht es dir heute?', 'Bonjour tout le monde, comment allez-vous ?', 'Привет, как дела?', 'Good morning'));
    expect(r.body.map((x: any) => x.detectedLanguage.language)).toEqual(['de', 'fr', 'ru', 'en']);
    for (const x of r.body) expect(x.detectedLanguage.score).toBeGreaterThan(0);
    expect(r.body[3].translations[0].text).toBe('Good morning'); // English to English stays
    const given = await post('?api-version=3.0&to=en&from=de', items('Guten Morgen'));
    expect(given.body[0].detectedLanguage).toBeUndefined();
  });

  it('short common texts (greetings, UI strings) are detected by their words, with score 1 when one language knows them all', async () => {
    // tinyld guessed these from letter statistics: "Hallo Welt" nl, "Bonjour" fr at 0.14, "Hello" it, "Cancel" nothing (en, score 0)
    const cases: [string, string][] = [
      ['Good morning', 'en'], ['Hello', 'en'], ['Hello world', 'en'], ['Thank you', 'en'], ['Save', 'en'], ['Cancel', 'en'], ['Open file', 'en'], ['Sign in', 'en'],
      ['Hallo Welt', 'de'], ['Guten Tag', 'de'], ['Einstellungen', 'de'], ['Speichern', 'de'],
      ['Bonjour', 'fr'], ['Merci beaucoup', 'fr'], ['Annuler', 'fr'],
      ['Gracias', 'es'], ['Hola', 'es'], ['Grazie mille', 'it'], ['Ciao', 'it'], ['Obrigado', 'pt'], ['Olá', 'pt'],
      ['Dank je wel', 'nl'], ['Dziękuję', 'pl'], ['Tack', 'sv'], ['Merhaba', 'tr'], ['Ahoj', 'cs'], ['Kiitos', 'fi'],
      ['Привет', 'ru'], ['Дякую', 'uk'], ['Здравей', 'bg'],
    ];
    const r = await post('?api-version=3.0&to=ja', items(...cases.map(([t]) => t)));
    expect(r.body.map((x: any, i: number) => [cases[i][0], x.detectedLanguage])).toEqual(cases.map(([t, language]) => [t, { language, score: 1 }]));
    // a word two languages share is a tie: a lower score, the language still one of them
    const tie = await post('?api-version=3.0&to=ja', items('Tak'));
    expect(['pl', 'da']).toContain(tie.body[0].detectedLanguage.language);
    expect(tie.body[0].detectedLanguage.score).toBe(0.5);
    // vx translate without --from says so too
    const cli = await e2e.run(['translate', '--to', 'ja', 'Hallo Welt', 'Bonjour', '-o', 'json']);
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout).map((x: any) => x.detectedLanguage)).toEqual([{ language: 'de', score: 1 }, { language: 'fr', score: 1 }]);
  });

  it('detection reads the words, not the markup: tags, entities and (with textType=html) notranslate content are left out', async () => {
    const html = await post(
      '?api-version=3.0&to=ja&textType=html',
      items('Save <span class="notranslate">%1$s</span> of <span class="notranslate">%2$d</span> files', '<p class="greeting">Bonjour</p>', 'Hallo <span class="notranslate">{{name}}</span>, willkommen'),
    );
    expect(html.body.map((x: any) => x.detectedLanguage)).toEqual([{ language: 'en', score: 1 }, { language: 'fr', score: 1 }, { language: 'de', score: 1 }]);
    const plain = await post('?api-version=3.0&to=ja', items('<b>Guten Morgen</b> &amp; <i>Hallo</i>'));
    expect(plain.body[0].detectedLanguage).toEqual({ language: 'de', score: 1 });
  });

  it('a short text the detector cannot place is detected by its script (Arabic letters are not English), before suggestedFrom', async () => {
    // tinyld finds nothing in "مرحبا" and Yiddish in "שלום עולם": the emulator answered en (score 0) for both
    const r = await post('?api-version=3.0&to=en&suggestedFrom=fr', items('مرحبا', 'שלום עולם'));
    expect(r.body.map((x: any) => x.detectedLanguage)).toEqual([{ language: 'ar', score: 0.5 }, { language: 'he', score: 0.5 }]);
    expect(r.body.map((x: any) => x.translations[0].text)).toEqual(['[en] مرحبا', '[en] שלום עולם']);
  });

  it('suggestedFrom is used when detection fails', async () => {
    const r = await post('?api-version=3.0&to=en&suggestedFrom=fr', items('12345'));
    expect(r.body[0].detectedLanguage).toEqual({ language: 'fr', score: 0 });
  });

  it('profanity: NoAction passes the word, Marked with Asterisk or Tag, Deleted removes it', async () => {
    const text = 'This is damn good';
    const t = async (q: string) => (await post(`?api-version=3.0&to=de&from=en${q}`, items(text))).body[0].translations[0].text;
    expect(await t('')).toBe('[de] Ţĥîš îš damn ĝööð');
    expect(await t('&profanityAction=NoAction')).toBe('[de] Ţĥîš îš damn ĝööð');
    expect(await t('&profanityAction=Marked')).toBe('[de] Ţĥîš îš **** ĝööð');
    expect(await t('&profanityAction=Marked&profanityMarker=Asterisk')).toBe('[de] Ţĥîš îš **** ĝööð');
    expect(await t('&profanityAction=Marked&profanityMarker=Tag')).toBe('[de] Ţĥîš îš <profanity>damn</profanity> ĝööð');
    expect(await t('&profanityAction=Deleted')).toBe('[de] Ţĥîš îš ĝööð');
  });

  it('alignment: only for supported pairs and not for HTML; empty proj otherwise', async () => {
    const a = async (q: string, text = 'Hello world') => (await post(`?api-version=3.0&includeAlignment=true${q}`, items(text))).body[0].translations[0].alignment;
    expect(await a('&to=de&from=en')).toEqual({ proj: '0:4-5:9 6:10-11:15' });
    expect(await a('&to=zh-Hant&from=en')).toEqual({ proj: '' });
    expect(await a('&to=de&from=fr')).toEqual({ proj: '' });
    expect(await a('&to=ko&from=ja')).toEqual({ proj: '0:4-5:9 6:10-11:15' });
    expect(await a('&to=de&from=en&textType=html', '<p>Hello</p>')).toEqual({ proj: '' });
  });

  it('sentence lengths from sentence segmentation, inside each translation', async () => {
    const r = await post('?api-version=3.0&to=de&from=en&includeSentenceLength=true', items('Hello there. How are you? Fine.'));
    expect(r.body[0].translations[0].sentLen).toEqual({ srcSentLen: [13, 13, 5], transSentLen: [18, 13, 5] });
  });

  it('HTML: markup, entities and class=notranslate content kept; text translated', async () => {
    const html = '<div class="x notranslate">Keep <b>this</b></div><p title="Hello">Hello &amp; <i>bye</i><br/>now</p>';
    const r = await post('?api-version=3.0&to=de&from=en&textType=HTML', items(html));
    expect(r.body[0].translations[0].text).toBe('<div class="x notranslate">Keep <b>this</b></div><p title="Hello">[de] Ĥéļļö &amp; <i>ƀýé</i><br/>ñöŵ</p>');
  });

  it('an HTML item sent without textType=html keeps its tags intact (plain mode translates the text only)', async () => {
    const r = await post('?api-version=3.0&to=de&from=en', items('<html><p title="Hi">Hello <b>world</b></p></html>'));
    expect(r.body[0].translations[0].text).toBe('[de] <html><p title="Hi">Ĥéļļö <b>ŵöŕļð</b></p></html>');
  });

  it('transliteration to the requested script, per target; sourceText for text in an unusual script', async () => {
    const r = await post('?api-version=3.0&to=ru&to=el&from=en&toScript=Cyrl&toScript=Grek', items('Good day'));
    expect(r.body[0].translations.map((t: any) => t.transliteration)).toEqual([
      { script: 'Cyrl', text: '[ру] Гоод д\u0430ы' },
      { script: 'Grek', text: '[ελ] Γοοδ δαυ' },
    ]);
    const s = await post('?api-version=3.0&to=en&from=ru', items('privet mir'));
    expect(s.body[0].sourceText).toEqual({ text: 'привет мир' });
    const none = await post('?api-version=3.0&to=en&from=de', items('Guten Tag'));
    expect(none.body[0].sourceText).toBeUndefined();
  });

  it('categories: Custom in X-MT-System for pairs of the custom system, Microsoft (the general model) for the fallback', async () => {
    const cat = '0000c0de-0000-4000-8000-00000000c001-TECH';
    const r = await post(`?api-version=3.0&to=de&to=it&from=en&category=${cat}`, items('Hello'));
    expect(r.headers.get('x-mt-system')).toBe('Custom,Microsoft');
    expect(r.body[0].translations.map((t: any) => t.text)).toEqual(['[de:custom] Ĥéļļö', '[it] Ĥéļļö']);
    const unknown = await post('?api-version=3.0&to=de&from=en&category=other-GENERAL', items('Hello'));
    expect(unknown.headers.get('x-mt-system')).toBe('Microsoft');
  });
});
