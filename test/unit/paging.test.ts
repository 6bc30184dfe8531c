import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/core/errors.js';
import { collect, paginate, readPage, resolveNextLink } from '../../src/core/paging.js';

const BASE = 'http://127.0.0.1:4010/svc/items';

function pages(map: Record<string, unknown>) {
  const fetched: string[] = [];
  const fetchPage = async (u: string) => {
    fetched.push(u);
    if (!(u in map)) throw new Error(`unexpected fetch ${u}`);
    return map[u];
  };
  return { fetched, fetchPage };
}

describe('readPage', () => {
  it('ends on an absent, null or empty link', () => {
    expect(readPage({ value: [1] }).next).toBeUndefined();
    expect(readPage({ value: [1], nextLink: null }).next).toBeUndefined();
    expect(readPage({ value: [1], '@odata.nextLink': '' }).next).toBeUndefined();
    expect(readPage({ value: [], '@odata.nextLink': 'x' }).next).toBe('x');
    expect(readPage({ items: [2], next: 'n' }, { itemsKey: 'items', nextKey: 'next' })).toMatchObject({ items: [2], next: 'n' });
  });
  it('a page without the items array or with a non-string link is a service error', () => {
    for (const body of [null, 'text', [1], { value: 'x' }, { values: [] }]) expect(() => readPage(body)).toThrow(ServiceError);
    expect(() => readPage({ value: [], nextLink: 42 })).toThrow(/not a string/);
  });
});

describe('paginate', () => {
  it('walks @odata.nextLink and nextLink (relative too) until the end', async () => {
    const { fetched, fetchPage } = pages({
      [BASE]: { value: [1, 2], '@odata.nextLink': `${BASE}?page=2` },
      [`${BASE}?page=2`]: { value: [3], nextLink: '/svc/items?page=3' },
      'http://127.0.0.1:4010/svc/items?page=3': { value: [], nextLink: '?page=4' },
      [`${BASE}?page=4`]: { value: [4], nextLink: null },
    });
    expect(await collect(paginate(BASE, fetchPage))).toEqual([1, 2, 3, 4]);
    expect(fetched).toHaveLength(4);
  });
  it('stops at max items without fetching more pages', async () => {
    const { fetched, fetchPage } = pages({ [BASE]: { value: [1, 2], nextLink: `${BASE}?p=2` }, [`${BASE}?p=2`]: { value: [3, 4], nextLink: `${BASE}?p=3` } });
    expect(await collect(paginate(BASE, fetchPage, { max: 3 }))).toEqual([1, 2, 3]);
    expect(fetched).toHaveLength(2);
    const two = pages({ [BASE]: { value: [1, 2], nextLink: `${BASE}?p=2` } });
    expect(await collect(paginate(BASE, two.fetchPage, { max: 2 }))).toEqual([1, 2]);
    expect(two.fetched).toHaveLength(1);
  });
  it('refuses a repeated link (endless loop)', async () => {
    const { fetchPage } = pages({ [BASE]: { value: [1], nextLink: `${BASE}?p=2` }, [`${BASE}?p=2`]: { value: [2], nextLink: `${BASE}?p=2` } });
    await expect(collect(paginate(BASE, fetchPage))).rejects.toThrow(/already followed .*endless loop/);
    const back = pages({ [BASE]: { value: [1], nextLink: BASE } });
    await expect(collect(paginate(BASE, back.fetchPage))).rejects.toThrow(ServiceError);
  });
  it('refuses a link to another host, scheme or port and never fetches it', async () => {
    for (const foreign of ['http://evil.example/items', 'https://127.0.0.1:4010/svc/items?p=2', 'http://127.0.0.1:4011/svc', 'http://localhost:4010/svc?p=2', '//evil.example/x']) {
      const { fetched, fetchPage } = pages({ [BASE]: { value: [1], nextLink: foreign } });
      await expect(collect(paginate(BASE, fetchPage))).rejects.toThrow(/not at the configured endpoint http:\/\/127\.0\.0\.1:4010; refusing to send credentials there/);
      expect(fetched).toEqual([BASE]);
    }
  });
  it('bounds the number of pages', async () => {
    let n = 0;
    const it = paginate(BASE, async () => ({ value: [n], nextLink: `${BASE}?p=${++n}` }), { maxPages: 5 });
    await expect(collect(it)).rejects.toThrow('stopped after 5 pages');
  });
  it('an invalid link is a service error', () => {
    expect(() => resolveNextLink('http://[bad', BASE, 'http://127.0.0.1:4010')).toThrow(/invalid next-page link/);
  });
});
