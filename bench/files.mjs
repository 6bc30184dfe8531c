// Incremental locale-file sync: `vx translate sync` of an i18next file of 10,000 units to 5
// languages, then 10 units changed and synced again. The second sync must send those 10 texts and
// nothing else (once, to all 5 languages: one request), and take a fraction of the first run.
// The same for each app format (Android strings.xml, .resx, .properties, Apple .strings,
// .stringsdict and String Catalog, Flutter ARB): 10,000 entries, 10 changed, only those sent.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { spawn } from 'node:child_process';
import { translateServer } from './servers.mjs';
import { median, report, VX } from './lib.mjs';

function makeSource(units) {
  const groups = {};
  for (let i = 0; i < units; i++) {
    const g = `section${Math.floor(i / 100)}`;
    groups[g] ??= {};
    groups[g][`key${i}`] = i % 3 === 0 ? `Hello {{name}}, order ${i} has %d items` : i % 3 === 1 ? `Click <b>here</b> to open report ${i}` : `Shipment ${i} left the warehouse on {0}`;
  }
  return `${JSON.stringify(groups, null, 2)}\n`;
}

function run(args, env, cwd) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    // CPU seconds of vx itself (GNU time): on a shared, loaded machine wall time says little
    const child = spawn('/usr/bin/time', ['-f', 'vx-cpu %U %S', process.execPath, VX, ...args], { env, cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (b) => (err += b));
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0) return reject(new Error(`vx ${args.join(' ')} exited ${code}: ${err.slice(-1500)}`));
      const m = /sent ([\d,]+) distinct texts? in ([\d,]+) requests?/.exec(err);
      const cpu = /vx-cpu ([\d.]+) ([\d.]+)/.exec(err);
      resolve({ ms, cpu: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : NaN, texts: Number(m?.[1].replaceAll(',', '') ?? NaN), requests: Number(m?.[2].replaceAll(',', '') ?? NaN) });
    });
  });
}

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** 10,000-entry sources of the app formats: [file, its text, texts per entry]; entry i's texts hold `#i#` (what a change edits). */
const APP_FORMATS = {
  android: ['res/values/strings.xml', (n) => `<resources>\n${range(n).map((i) => `    <string name="k${i}">Open report #${i}# for <xliff:g id="who">%1$s</xliff:g></string>`).join('\n')}\n</resources>\n`, 1],
  resx: ['Resources.resx', (n) => `<?xml version="1.0" encoding="utf-8"?>\n<root>\n${range(n).map((i) => `  <data name="k${i}" xml:space="preserve">\n    <value>Shipment #${i}# left on {0}</value>\n  </data>`).join('\n')}\n</root>\n`, 1],
  properties: ['messages.properties', (n) => range(n).map((i) => `k${i}=Order #${i}# has {0} items`).join('\n') + '\n', 1],
  strings: ['en.lproj/Localizable.strings', (n) => range(n).map((i) => `/* entry ${i} */\n"k${i}" = "Hello %@, order #${i}#";`).join('\n') + '\n', 1],
  stringsdict: [
    'en.lproj/Localizable.stringsdict',
    (n) =>
      `<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n${range(n)
        .map((i) => `\t<key>k${i}</key>\n\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>%#@n@</string>\n\t\t<key>n</key>\n\t\t<dict>\n\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>d</string>\n\t\t\t<key>one</key>\n\t\t\t<string>%d file in folder #${i}#</string>\n\t\t\t<key>other</key>\n\t\t\t<string>%d files in folder #${i}#</string>\n\t\t</dict>\n\t</dict>`)
        .join('\n')}\n</dict>\n</plist>\n`,
    2,
  ],
  arb: ['lib/l10n/app_en.arb', (n) => `{\n  "@@locale": "en",\n${range(n).map((i) => `  "k${i}": ${JSON.stringify(`Hello {name}, order #${i}#`)}`).join(',\n')}\n}\n`, 1],
  xcstrings: [
    'Localizable.xcstrings',
    (n) =>
      `{\n  "sourceLanguage" : "en",\n  "strings" : {\n${range(n)
        .map((i) => `    "k${i}" : {\n      "localizations" : {\n        "en" : {\n          "stringUnit" : {\n            "state" : "translated",\n            "value" : ${JSON.stringify(`Open %@ in window #${i}#`)}\n          }\n        }\n      }\n    }`)
        .join(',\n')}\n  },\n  "version" : "1.0"\n}\n`,
    1,
  ],
};

function range(n) {
  return Array.from({ length: n }, (_, i) => i);
}

/** Each app format: a full sync of 10,000 entries, 10 changed, the second sync's texts counted. */
async function appFormats(env, dir, { units, changed, langs }) {
  const picked = new Set(range(changed).map((k) => Math.floor((k * units) / changed) + 1));
  for (const [name, [file, make, perUnit]] of Object.entries(APP_FORMATS)) {
    const work = join(dir, `app-${name}`);
    const src = join(work, file);
    (await import('node:fs')).mkdirSync(join(src, '..'), { recursive: true });
    writeFileSync(src, make(units));
    const args = ['translate', 'sync', file, '--to', langs.join(','), '--verbose', '-o', 'none'];
    const first = await run(args, env, work);
    // the picked entries' source texts change; a String Catalog holds the translations too (the
    // bench's server answers with the text itself): there, only the English localizations
    const mark = (t) => t.replace(/#(\d+)#/g, (m, i) => (picked.has(Number(i)) ? `${m} (changed)` : m));
    const text = readFileSync(src, 'utf8');
    writeFileSync(src, name === 'xcstrings' ? text.replace(/"en" : \{[^}]*\}/g, mark) : mark(text));
    const second = await run(args, env, work);
    console.log(`      ${name}: full sync ${first.texts} texts in ${first.requests} requests (${(first.cpu / 1000).toFixed(2)} s CPU); ${changed} changed: ${second.texts} texts in ${second.requests} request(s) (${(second.cpu / 1000).toFixed(2)} s CPU)`);
    report(`vx translate sync (${name}) after changing ${changed} of ${units} entries: texts sent vs the changed entries' texts`, second.texts, changed * perUnit, 1, { unit: 'texts' });
  }
}

export async function files({ units = 10_000, changed = 10, langs = ['de', 'fr', 'it', 'ja', 'pl'], rounds = 3 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'vx-bench-files-'));
  const server = await translateServer();
  const env = { ...process.env, VX_CONFIG_DIR: join(dir, 'cfg'), VX_TRANSLATOR_ENDPOINT: server.url, VX_TRANSLATOR_KEY: 'bench-key' };
  const args = ['translate', 'sync', 'en.json', '--to', langs.join(','), '--verbose', '-o', 'none'];
  try {
    const full = [];
    const incremental = [];
    const unchanged = [];
    let last;
    for (let r = 0; r < rounds; r++) {
      rmSync(join(dir, 'work'), { recursive: true, force: true });
      const work = join(dir, 'work');
      (await import('node:fs')).mkdirSync(work);
      const src = makeSource(units);
      writeFileSync(join(work, 'en.json'), src);
      full.push(await run(args, env, work));
      unchanged.push(await run(args, env, work));
      // change `changed` units spread over the file
      let text = readFileSync(join(work, 'en.json'), 'utf8');
      for (let k = 0; k < changed; k++) {
        const i = Math.floor((k * units) / changed) + 1;
        text = text.replace(new RegExp(`("key${i}": ")`), `$1Changed ${r}: `);
      }
      writeFileSync(join(work, 'en.json'), text);
      last = await run(args, env, work);
      incremental.push(last);
    }
    const f = median(full.map((x) => x.cpu));
    const u = median(unchanged.map((x) => x.cpu));
    const i = median(incremental.map((x) => x.cpu));
    const wall = (xs) => `${(median(xs.map((x) => x.ms)) / 1000).toFixed(2)} s`;
    console.log(
      `      CPU (wall): full sync of ${units} units x ${langs.length} languages ${(f / 1000).toFixed(2)} s (${wall(full)}), ${full[0].texts} texts in ${full[0].requests} requests; ` +
        `nothing changed ${(u / 1000).toFixed(2)} s (${wall(unchanged)}), ${unchanged[0].requests} requests; ${changed} changed ${(i / 1000).toFixed(2)} s (${wall(incremental)}), ${last.texts} texts in ${last.requests} request(s)`,
    );
    report(`vx translate sync after changing ${changed} of ${units} units: texts sent per language vs changed`, last.texts, changed, 1, { unit: 'texts' });
    report(`vx translate sync with nothing changed: requests`, unchanged[0].requests + 1, 1, 1, { unit: 'requests+1' });
    // time is reported, not a target: reading, checking and re-rendering every file is the floor (the 'nothing changed' figure)
    report(`vx translate sync after changing ${changed} of ${units} units: CPU time vs the full sync`, i, f, 1, { informational: true });
    await appFormats(env, dir, { units, changed, langs: langs.slice(0, 2) });
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await files();
