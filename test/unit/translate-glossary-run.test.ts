// vx translate --glossary, in-process against the emulator: each text holding terms goes to each
// target with its terms in the dictionary markup (one `to` per such request), the markup never
// reaches the output, --from is required, the translate.glossary setting, a memory keyed by the
// terms that applied, and the check of each answer (a service that drops a term: exit 1, the
// item named).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { json } from '../helpers/httpmock.js';
import { offlineEnv, runInProc } from '../helpers/inproc.js';
import { removeDir, tempDir } from '../helpers/vx.js';

const e2e = useEmulator();
const dir = tempDir('vx-glossary-run-');
afterAll(() => removeDir(dir));
const glossary = join(dir, 'terms.csv');
writeFileSync(glossary, 'en,de,fr\naccount statement,Kontoauszug,relevé de compte\nContoso,Contoso,\n');
const calls = () => e2e.emu.state.translator.calls.map((c) => ({ to: new URLSearchParams(c.query).getAll('to').join(','), texts: c.texts }));

describe('vx translate --glossary', () => {
  it('sends the markup per target, only for texts that hold terms; the translation is in place and the markup never in the output', async () => {
    const r = await e2e.run(['translate', '--to', 'de,fr', '--from', 'en', '--glossary', glossary, '-o', 'json', 'Your account statement is ready', 'Good morning']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const out = JSON.parse(r.stdout) as { translations: { to: string; text: string }[] }[];
    expect(out[0].translations).toEqual([
      { to: 'de', text: '[de] Ýöûŕ Kontoauszug îš ŕéåðý' },
      { to: 'fr', text: '[fr] Ýöûŕ relevé de compte îš ŕéåðý' },
    ]);
    expect(out[1].translations.map((t) => t.text)).toEqual(['[de] Ĝööð ɱöŕñîñĝ', '[fr] Ĝööð ɱöŕñîñĝ']);
    expect(calls()).toEqual([
      { to: 'de', texts: ['Your <mstrans:dictionary translation="Kontoauszug">account statement</mstrans:dictionary> is ready', 'Good morning'] },
      { to: 'fr', texts: ['Your <mstrans:dictionary translation="relevé de compte">account statement</mstrans:dictionary> is ready', 'Good morning'] },
    ]);
    // a batch without terms goes to every target at once
    e2e.emu.reset();
    const plain = await e2e.run(['translate', '--to', 'de,fr', '--from', 'en', '--glossary', glossary, 'Good night']);
    expect(plain.code).toBe(0);
    expect(calls()).toEqual([{ to: 'de,fr', texts: ['Good night'] }]);
  });

  it('--dry-run prints the requests as the run sends them: one per target, the markup in; nothing sent', async () => {
    const r = await e2e.run(['translate', '--to', 'de,fr', '--from', 'en', '--glossary', glossary, '--dry-run', 'Your account statement', 'Hi']);
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout) as { url: string; body: { Text: string }[] }[];
    expect(plan.map((p) => [new URL(p.url).searchParams.getAll('to').join(','), p.body.map((b) => b.Text)])).toEqual([
      ['de', ['Your <mstrans:dictionary translation="Kontoauszug">account statement</mstrans:dictionary>', 'Hi']],
      ['fr', ['Your <mstrans:dictionary translation="relevé de compte">account statement</mstrans:dictionary>', 'Hi']],
    ]);
    expect(e2e.emu.state.translator.calls).toEqual([]);
  });

  it('--estimate bills the markup as the run does (markupCharacters its share), and stops at --budget where the run would', async () => {
    const de = 'Your <mstrans:dictionary translation="Kontoauszug">account statement</mstrans:dictionary>';
    const fr = 'Your <mstrans:dictionary translation="relevé de compte">account statement</mstrans:dictionary>';
    const args = ['translate', '--to', 'de,fr', '--from', 'en', '--glossary', glossary, 'Your account statement', 'Hi'];
    const r = await e2e.run([...args, '--estimate', '-o', 'json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const plain = ('Your account statement'.length + 2) * 2;
    const billed = de.length + fr.length + 2 * 2;
    expect(JSON.parse(r.stdout)).toMatchObject({ items: 2, toSend: 2, characters: 24, targets: 2, billedCharacters: billed, markupCharacters: billed - plain });
    expect(e2e.emu.state.translator.calls).toEqual([]);
    // a budget the texts fit without their markup, not with it: the estimate stops as the run does
    const budget = ['--budget', String(plain + 10)];
    const est = await e2e.run([...args, '--estimate', ...budget]);
    const run = await e2e.run([...args, ...budget]);
    expect([est.code, run.code]).toEqual([6, 6]);
    expect(est.stderr.split('\n')[0]).toBe(run.stderr.split('\n')[0]);
  });

  it('a run without English on either side is warned that the service applies the dictionary between English and another language only', async () => {
    const r = await e2e.run(['translate', '--from', 'fr', '--to', 'de,en', '--glossary', glossary, 'Votre relevé de compte']);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('warning: --glossary'))).toEqual([
      'warning: --glossary: the service applies its dynamic dictionary between English and another language only; from fr to de it may leave a term as it is (each term missing from a translation is named)',
    ]);
    const en = await e2e.run(['translate', '--from', 'en', '--to', 'de,fr', '--glossary', glossary, 'Your account statement']);
    expect([en.code, en.stderr]).toEqual([0, '']);
  });

  it('needs --from (exit 2 saying why, nothing sent); the setting names the glossary; a bad file is one line', async () => {
    const r = await e2e.run(['translate', '--to', 'de', '--glossary', glossary, 'account statement']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--glossary needs the source language: give --from <lang> \(the service applies a glossary's terms only when the source language is given/);
    const env = { VX_TRANSLATE_GLOSSARY: glossary };
    const s = await e2e.run(['translate', '--to', 'de', '--from', 'en', 'account statement'], { env });
    expect([s.code, s.stdout]).toEqual([0, 'Kontoauszug\n']);
    const bad = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--glossary', join(dir, 'none.tbx'), 'x']);
    expect([bad.code, bad.stderr.trim().split('\n')]).toEqual([2, [expect.stringMatching(/glossary .*none\.tbx: no such file$/)]]);
    expect(e2e.emu.state.translator.calls).toHaveLength(1);
  });

  it("DeepL's glossary export and term pairs without a header: the run's terms as any glossary's; pairs with two targets refused, nothing sent", async () => {
    const deepl = join(dir, 'deepl.csv');
    writeFileSync(deepl, 'account statement,Kontoauszug,EN,DE,0.93\n');
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--glossary', deepl, 'Your account statement']);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '[de] Ýöûŕ Kontoauszug\n', '']);
    expect(calls()).toEqual([{ to: 'de', texts: ['Your <mstrans:dictionary translation="Kontoauszug">account statement</mstrans:dictionary>'] }]);
    const pairs = join(dir, 'pairs.tsv');
    writeFileSync(pairs, 'account statement\tKontoauszug\n');
    e2e.emu.reset();
    const p = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--glossary', pairs, 'Your account statement']);
    expect([p.code, p.stdout]).toEqual([0, '[de] Ýöûŕ Kontoauszug\n']);
    e2e.emu.reset();
    const two = await e2e.run(['translate', '--to', 'de,fr', '--from', 'en', '--glossary', pairs, 'Your account statement']);
    expect([two.code, two.stdout, two.stderr]).toEqual([2, '', `vx: glossary ${pairs}: it pairs each term with one translation and names no language: translate into one language at a time with it (this run: de, fr), or give it a header row of language codes (en,de)\n`]);
    expect(calls()).toEqual([]);
  });

  it('a glossary too large for the heap node was given: exit 2 in one line, nothing sent (not V8 running out of memory)', async () => {
    const big = join(dir, 'big.csv');
    const rows = ['en,de'];
    for (let i = 0; i < 60_000; i++) rows.push(`widget ${i},Teil ${i}`);
    writeFileSync(big, `${rows.join('\n')}\n`);
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--glossary', big, 'widget 7'], { spawn: true, env: { NODE_OPTIONS: '--max-old-space-size=48' } });
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(new RegExp(`^vx: glossary ${big.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: reading its 2 MB takes about \\d+ MB of memory, more than node gives this process \\(\\d+ MB free\\): cut it to the project's terms, or give node more \\(NODE_OPTIONS=--max-old-space-size=<MB>\\)\n$`));
    expect(calls()).toEqual([]);
  });

  it('a target no term has a translation into: warned once, translated without the glossary', async () => {
    const r = await e2e.run(['translate', '--to', 'de,ja,it', '--from', 'en', '--glossary', glossary, 'Your account statement']);
    expect([r.code, r.stderr]).toEqual([0, `warning: --glossary: no term of ${glossary} has a translation into ja, it: they are translated without the glossary\n`]);
    expect(calls()).toEqual([
      { to: 'de', texts: ['Your <mstrans:dictionary translation="Kontoauszug">account statement</mstrans:dictionary>'] },
      { to: 'ja,it', texts: ['Your account statement'] },
    ]);
  });

  it('HTML: the markup goes into the text, not into tags or notranslate elements', async () => {
    const r = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--text-type', 'html', '--glossary', glossary, '<p title="account statement">Your account statement <code>account statement</code></p>']);
    expect([r.code, r.stdout]).toEqual([0, '<p title="account statement">[de] Ýöûŕ Kontoauszug <code>åççöûñţ šţåţéɱéñţ</code></p>\n']);
    expect(calls()[0].texts).toEqual(['<p title="account statement">Your <mstrans:dictionary translation="Kontoauszug">account statement</mstrans:dictionary> <code>account statement</code></p>']);
  });

  it('the memory key holds the terms that applied: a changed term sends again only the texts that hold it', async () => {
    const memory = join(dir, 'notes.tm');
    const g = join(dir, 'edit.yaml');
    writeFileSync(g, 'account statement:\n  de: Kontoauszug\ninvoice:\n  de: Rechnung\n');
    const texts = ['Your account statement', 'Your invoice', 'Good morning'];
    const first = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--glossary', g, '--memory', memory, ...texts]);
    expect(first.code).toBe(0);
    e2e.emu.reset();
    writeFileSync(g, 'account statement:\n  de: Kontoübersicht\ninvoice:\n  de: Rechnung\n');
    const second = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--glossary', g, '--memory', memory, ...texts]);
    expect([second.code, second.stdout.split('\n')[0]]).toEqual([0, '[de] Ýöûŕ Kontoübersicht']);
    expect(calls()).toEqual([{ to: 'de', texts: ['Your <mstrans:dictionary translation="Kontoübersicht">account statement</mstrans:dictionary>'] }]);
    // without the glossary the texts that held terms are other entries: sent as they are
    e2e.emu.reset();
    const none = await e2e.run(['translate', '--to', 'de', '--from', 'en', '--memory', memory, ...texts]);
    expect(none.code).toBe(0);
    expect(calls()).toEqual([{ to: 'de', texts: ['Your account statement', 'Your invoice'] }]);
  });
});

describe('the missing-term check', () => {
  it('batches are cut by the texts as sent, markup included: no request carries more than 50,000 characters, and none is split after its batch was made', async () => {
    // 1,000 lines of 35 characters: 35,000 as they are (one request), ~94,000 with their markup
    const file = join(dir, 'many.txt');
    writeFileSync(file, Array.from({ length: 1000 }, (_, i) => `Line ${String(i).padStart(4, '0')}: your account statement\n`).join(''));
    const r = await e2e.run(['--debug', 'translate', '--to', 'de', '--from', 'en', '--glossary', glossary, '--file', file, '-o', 'none']);
    expect(r.code).toBe(0);
    const sent = calls().map((c) => c.texts.reduce((n, t) => n + t.length, 0));
    expect(sent.length).toBe(2);
    for (const n of sent) expect(n).toBeLessThanOrEqual(50_000);
    expect(sent.reduce((a, b) => a + b)).toBe(1000 * 'Line 0000: your <mstrans:dictionary translation="Kontoauszug">account statement</mstrans:dictionary>'.length);
    // one request a batch: the batcher cut them (its debug line per batch names the items of each)
    const batches = r.stderr.split('\n').filter((l) => /batch \d+: /.test(l));
    expect(batches.map((l) => /\((\d+) items, ([\d,]+) characters/.exec(l)!.slice(1).join(' '))).toEqual(sent.map((n, i) => `${calls()[i].texts.length} ${n.toLocaleString('en-US')}`));
  });

  it('a service answer that drops the term: the item named on stderr, every translation written, exit 1', async () => {
    // a service that ignores the dictionary: the term comes back translated its own way
    const answer = (req: { text: string }) => {
      const texts = JSON.parse(req.text) as { Text: string }[];
      return json(200, texts.map((t) => ({ translations: [{ to: 'de', text: t.Text.replace(/<mstrans:dictionary[^>]*>[^<]*<\/mstrans:dictionary>/g, 'Kontoübersicht') }] })));
    };
    const r = await runInProc(['translate', '--to', 'de', '--from', 'en', '--glossary', glossary, 'Hello', 'Your account statement'], {
      env: offlineEnv(),
      setup: (t) => t.http.stub('POST', /\/translate\?/, answer),
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('Hello\nYour Kontoübersicht\n');
    expect(r.stderr.trim().split('\n')).toEqual(['warning: argument 2: de: the term "account statement" is not translated as "Kontoauszug"', 'vx: 1 item lacks a translation the glossary asks for (listed above); every translation was written']);
    expect(JSON.parse(r.http.requests[0].text)).toEqual([{ Text: 'Hello' }, { Text: 'Your <mstrans:dictionary translation="Kontoauszug">account statement</mstrans:dictionary>' }]);
  });
});
