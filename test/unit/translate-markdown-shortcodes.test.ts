// Markdown with Hugo and Jekyll shortcodes, as docs sites write it: a shortcode is a placeholder,
// and one on a line of its own keeps its line breaks, so a translated paragraph around it does not
// swallow it (the diff of a target shows the translated text only). (Units are tokenized further
// by the run, as here: attribute lists, HTML, placeholders.)
import { beforeAll, describe, expect, it } from 'vitest';
import { loadMarkdown, markdown } from '../../src/api/translator/files/markdown.js';
import { tokenize } from '../../src/api/translator/files/protect.js';
import type { UnitValue } from '../../src/api/translator/files/types.js';

beforeAll(async () => {
  await loadMarkdown();
});

const upper = (doc: ReturnType<typeof markdown.parseSource>) =>
  new Map<string, UnitValue>(doc.units.map((u) => [u.key, { kind: 'new', parts: u.parts.map((ps) => tokenize(ps).map((p) => (p.kind === 'text' ? { ...p, value: p.value.toUpperCase() } : p))) }]));

describe('shortcodes', () => {
  it('a note shortcode on its own lines stays on its own lines; its text is translated', () => {
    const src = 'Intro line one\nline two.\n\n{{< note >}}\nBecause A records are not created for Pod names,\n`hostname` is required.\n{{< /note >}}\n\n## Title {#title}\n\n{{< feature-state for_k8s_version="v1.20" state="beta" >}}\n';
    const doc = markdown.parseSource(src, 'dns.md');
    const out = markdown.render(doc, 'de', upper(doc), undefined, {});
    expect(out).toBe('INTRO LINE ONE LINE TWO.\n\n{{< note >}}\nBECAUSE A RECORDS ARE NOT CREATED FOR POD NAMES, `hostname` IS REQUIRED.\n{{< /note >}}\n\n## TITLE {#title}\n\n{{< feature-state for_k8s_version="v1.20" state="beta" >}}\n');
  });

  it('Jekyll tags and a highlight block are placeholders with their content', () => {
    const src = 'See {% include note.html %} and {{ page.title }} here.\n{% highlight ruby %}\ndef foo\n  puts "x"\nend\n{% endhighlight %}\nAfter.\n';
    const doc = markdown.parseSource(src, 'post.md');
    const tokens = doc.units.flatMap((u) => u.parts[0]).filter((p) => p.kind === 'token').map((p) => p.value);
    expect(tokens).toContain('{% include note.html %}');
    expect(tokens).toContain('{{ page.title }}');
    expect(tokens).toContain('\n{% highlight ruby %}\ndef foo\n  puts "x"\nend\n{% endhighlight %}\n');
    expect(markdown.render(doc, 'de', upper(doc), undefined, {})).toBe('SEE {% include note.html %} AND {{ page.title }} HERE.\n{% highlight ruby %}\ndef foo\n  puts "x"\nend\n{% endhighlight %}\nAFTER.\n');
  });

  it('a soft line break is a space in linear time (a long run of spaces)', () => {
    const src = `a${' '.repeat(300_000)}b\nc\n`;
    const t0 = Date.now();
    const doc = markdown.parseSource(src, 'x.md');
    expect(doc.units[0].parts[0][0].value.endsWith('b c')).toBe(true);
    expect(Date.now() - t0).toBeLessThan(3000);
  });
});
