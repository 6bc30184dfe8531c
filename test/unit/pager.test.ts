// Which pager runs (VX_PAGER > PAGER > less -FRX; off with --no-pager, an empty VX_PAGER or cat) and when output is long.
import { describe, expect, it } from 'vitest';
import { pagerCommand, screenLines } from '../../src/core/pager.js';

describe('pagerCommand', () => {
  it('VX_PAGER, else PAGER, else less -FRX', () => {
    expect(pagerCommand({}, true)).toBe('less -FRX');
    expect(pagerCommand({ PAGER: 'more' }, true)).toBe('more');
    expect(pagerCommand({ PAGER: 'more', VX_PAGER: 'bat -p' }, undefined)).toBe('bat -p');
    expect(pagerCommand({ PAGER: '  ' }, true)).toBe('less -FRX');
  });
  it('off with --no-pager, VX_PAGER= or cat', () => {
    expect(pagerCommand({ VX_PAGER: 'less' }, false)).toBeUndefined();
    expect(pagerCommand({ VX_PAGER: '', PAGER: 'less' }, true)).toBeUndefined();
    expect(pagerCommand({ VX_PAGER: 'cat' }, true)).toBeUndefined();
    expect(pagerCommand({ PAGER: 'cat' }, true)).toBeUndefined();
  });
});

describe('screenLines', () => {
  it('counts wrapped lines, not colour codes', () => {
    expect(screenLines('a\nb\n', 80)).toBe(2);
    expect(screenLines(`${'x'.repeat(81)}\n`, 80)).toBe(2);
    expect(screenLines(`\u001b[1m${'x'.repeat(80)}\u001b[22m\n\n`, 80)).toBe(2);
  });
});
