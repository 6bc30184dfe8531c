# Readers that are not vx's, for the tests of what vx writes: Python's own XML parser (expat, via
# ElementTree), plistlib (Apple's property list format) and PyYAML. Prints what the file holds as JSON.
import json
import plistlib
import re
import sys
import xml.etree.ElementTree as ET

import yaml as pyyaml

ANDROID_ESC = re.compile(r'\\(u[0-9A-Fa-f]{4}|.)|"', re.S)


def android_text(s):
    """A string resource's text as Android reads it: escapes resolved, unescaped quotes dropped."""
    def rep(m):
        if m.group(0) == '"':
            return ''
        e = m.group(1)
        if e.startswith('u') and len(e) == 5:
            return chr(int(e[1:], 16))
        return {'n': '\n', 't': '\t'}.get(e, e)
    return ANDROID_ESC.sub(rep, s)


def element_text(el):
    return android_text(''.join(el.itertext()))


def spans(el):
    return [[c.tag, c.attrib, ''.join(c.itertext())] for c in el.iter() if c is not el and c.tag.endswith('}g')]


def android(path):
    root = ET.parse(path).getroot()
    out = {'strings': {}, 'plurals': {}, 'arrays': {}}
    for el in root:
        name = el.get('name')
        if el.tag == 'string':
            out['strings'][name] = {'text': element_text(el), 'spans': spans(el), 'translatable': el.get('translatable') != 'false'}
        elif el.tag == 'plurals':
            out['plurals'][name] = [[i.get('quantity'), element_text(i)] for i in el if i.tag == 'item']
        elif el.tag == 'string-array':
            out['arrays'][name] = [element_text(i) for i in el if i.tag == 'item']
    return out


def resx(path):
    root = ET.parse(path).getroot()
    out = {}
    for d in root.findall('data'):
        v = d.find('value')
        c = d.find('comment')
        out[d.get('name')] = {'value': v.text if v is not None else None, 'comment': c.text if c is not None else None, 'type': d.get('type')}
    return out


def plist(path):
    with open(path, 'rb') as f:
        return plistlib.load(f)


def local(tag):
    return tag.rsplit('}', 1)[-1]


def xliff(path):
    """Each unit's target text (1.2 trans-unit, 2.x segments joined), or None without one."""
    root = ET.parse(path).getroot()
    out = {}
    for el in root.iter():
        if local(el.tag) not in ('trans-unit', 'unit'):
            continue
        targets = [t for t in el.iter() if local(t.tag) == 'target']
        out[el.get('id')] = ''.join(''.join(t.itertext()) for t in targets) if targets else None
    return out


def yaml(path):
    with open(path, encoding='utf-8') as f:
        return pyyaml.safe_load(f)


print(json.dumps({'android': android, 'resx': resx, 'plist': plist, 'xliff': xliff, 'yaml': yaml}[sys.argv[1]](sys.argv[2]), ensure_ascii=False, default=str))
