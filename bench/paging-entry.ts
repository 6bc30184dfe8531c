// Bundled by bench/paging.mjs: vx's own paging path (ErpClient over core/http with its retry
// policy, then the JSON renderer) and an ideal raw loop over node:http, to compare in one process.
import * as http from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErpClient } from '../src/api/erp/client.js';
import { SETTINGS } from '../src/api/settings.js';
import { Config } from '../src/core/config/index.js';
import { Http } from '../src/core/http/index.js';
import { renderJson } from '../src/core/output/index.js';
import { findSet } from '../src/model/erp/index.js';

export async function vxList(base: string, company: string): Promise<number> {
  const h = new Http({ retries: 4 });
  const env = { VX_ERP_PREFIX: base, VX_ERP_TOKEN: 'bench-token', VX_ERP_COMPANY: company };
  const config = new Config(SETTINGS, { dir: mkdtempSync(join(tmpdir(), 'vx-bench-')), env });
  const set = findSet('currencies')!;
  const client = await ErpClient.open(h, config, set);
  const items: unknown[] = [];
  for await (const page of client.listPages(set)) for (const x of page) items.push(x);
  const out = renderJson(items);
  await h.close();
  return out.length;
}

export async function rawList(first: string): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (url: string) =>
    new Promise<any>((resolve, reject) => {
      http
        .get(url, { agent, headers: { authorization: 'Bearer bench-token' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
        })
        .on('error', reject);
    });
  const all: unknown[] = [];
  for (let url: string | undefined = first; url; ) {
    const page = await get(url);
    for (const r of page.value) all.push(r);
    url = page['@odata.nextLink'];
  }
  const out = `${JSON.stringify(all, null, 2)}\n`;
  agent.destroy();
  return out.length;
}
