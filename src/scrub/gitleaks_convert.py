"""Converts gitleaks' config/gitleaks.toml into src/scrub/gitleaks.rs (data only).

Usage: python3 src/scrub/gitleaks_convert.py gitleaks.toml <gitleaks commit> src/scrub/gitleaks.rs LICENSE
       cargo fmt
Then run `cargo test --test api scrub::` (every rule must compile; the recall test reports the rest).
"""
import tomllib, sys, json

SRC_COMMIT = sys.argv[2]
# gitleaks' LICENSE file (MIT), reproduced in the generated file as it asks.
LICENSE = open(sys.argv[4]).read() if len(sys.argv) > 4 else open(sys.argv[1].rsplit('/', 1)[0] + '/LICENSE').read()
d = tomllib.load(open(sys.argv[1], 'rb'))

OUT_CLASS = {'w': '[0-9A-Za-z_]', 'd': '[0-9]', 's': r'[\t\n\f\r ]', 'S': r'[^\t\n\f\r ]',
             'W': '[^0-9A-Za-z_]', 'D': '[^0-9]', 'b': r'(?-u:\b)', 'B': r'\B'}
IN_CLASS = {'w': '0-9A-Za-z_', 'd': '0-9', 's': r'\t\n\f\r '}

def convert(p):
    """Go RE2 -> Rust regex with Go's ASCII meaning of \\w \\d \\s \\b; literal braces escaped."""
    out = []
    i = 0
    in_class = False
    class_start = 0
    while i < len(p):
        c = p[i]
        if c == '\\' and i + 1 < len(p):
            n = p[i + 1]
            if in_class and n in IN_CLASS:
                out.append(IN_CLASS[n])
            elif in_class and n in 'SWD':
                out.append({'S': '[:^space:]', 'W': '[:^word:]', 'D': '[:^digit:]'}[n])
            elif not in_class and n in OUT_CLASS:
                out.append(OUT_CLASS[n])
            else:
                out.append(c + n)
            i += 2
            continue
        if in_class:
            if c == '[' and p.startswith('[:', i):
                j = p.index(':]', i) + 2
                out.append(p[i:j]); i = j; continue
            if c == ']' and i > class_start:
                in_class = False
            out.append(c); i += 1; continue
        if c == '[':
            in_class = True
            out.append(c)
            i += 1
            if i < len(p) and p[i] == '^':
                out.append('^'); i += 1
            class_start = i  # a ']' right here is literal
            if i < len(p) and p[i] == ']':
                out.append(r'\]'); i += 1
            continue
        if c == '{':
            # a counted repetition {n}, {n,}, {n,m} follows an atom; anything else is a literal
            j = p.find('}', i)
            body = p[i + 1:j] if j > 0 else ''
            import re
            if j > 0 and re.fullmatch(r'\d+(,\d*)?', body) and out and out[-1] not in ('(', '|', '(?:'):
                out.append(p[i:j + 1]); i = j + 1; continue
            out.append(r'\{'); i += 1; continue
        if c == '}':
            out.append(r'\}'); i += 1; continue
        out.append(c); i += 1
    return ''.join(out)

def rs(s):
    # a Rust raw string with enough hashes
    h = '#'
    while ('"' + h) in s:
        h += '#'
    return 'r' + h + '"' + s + '"' + h

lines = []
w = lines.append
w('//! The gitleaks default rule set, as data: every rule of gitleaks\' `config/gitleaks.toml`')
w(f'//! (github.com/gitleaks/gitleaks, commit {SRC_COMMIT[:12]}), converted mechanically.')
w('//!')
w('//! The rules are gitleaks\' work, under its license:')
w('//!')
for line in LICENSE.strip().splitlines():
    w(('//! > ' + line).rstrip())
w('//!')
w('//! Converted, not copied as is: Go\'s ASCII `\\w`, `\\d`, `\\s` and `\\b` are spelled out (the Rust')
w('//! `regex` crate reads them as Unicode), literal braces are escaped. Rules that gitleaks')
w('//! applies only to some file paths run on all text here (we scrub text, not files), and the')
w('//! one rule that is only a file name (`pkcs12-file`) has no pattern. Allowlists that depend on')
w('//! file paths are left out. Do not edit by hand: regenerate with `gitleaks_convert.py` (next to')
w('//! this file) from a newer gitleaks.toml, then `cargo fmt`.')
w('')
w('use super::rule_data::{Allow, GitleaksRule, Target, rule};')
w('')
n_rules = 0
stop_consts = []
rule_lines = []
for r in d['rules']:
    n_rules += 1
    allows = []
    for a in r.get('allowlists', []):
        if 'paths' in a:
            continue  # path-only, or path AND regex: never true for text
        target = {'match': 'Match', 'line': 'Line'}.get(a.get('regexTarget', 'secret'), 'Secret')
        regs = ', '.join(rs(convert(x)) for x in a.get('regexes', []))
        sw = a.get('stopwords', [])
        if sw:
            name = 'STOPWORDS_' + r['id'].upper().replace('-', '_')
            stop_consts.append((name, sw))
            swref = name
        else:
            swref = '&[]'
        allows.append(f'Allow {{ target: Target::{target}, regexes: &[{regs}], stopwords: {swref} }}')
    pat = rs(convert(r['regex'])) if 'regex' in r else 'r""'
    ent = f"Some({float(r['entropy'])!r})" if 'entropy' in r else 'None'
    sg = f"Some({r['secretGroup']})" if 'secretGroup' in r else 'None'
    kws = ', '.join(json.dumps(k) for k in r.get('keywords', []))
    rule_lines.append(f'    rule({json.dumps(r["id"])}, {pat}, &[{kws}], {ent}, {sg}, &[{", ".join(allows)}]),')
w(f'/// Every gitleaks rule ({n_rules}), in gitleaks\' order, one a line:')
w('/// `rule(id, pattern, keywords, entropy floor, secret group, allowlists)`.')
w('#[rustfmt::skip]')
w('pub const RULES: &[GitleaksRule] = &[')
lines.extend(rule_lines)
w('];')
g = d['allowlist']
w('')
w('/// gitleaks\' global allowlist: whole secrets that are placeholders, not credentials.')
w('pub const GLOBAL_ALLOW: Allow = Allow {')
w('    target: Target::Secret,')
w('    regexes: &[' + ', '.join(rs(convert(x)) for x in g.get('regexes', [])) + '],')
w('    stopwords: &[' + ', '.join(json.dumps(x) for x in g.get('stopwords', [])) + '],')
w('};')
for name, sw in stop_consts:
    w('')
    w(f'/// Words whose presence in a candidate makes it no secret ({len(sw)}).')
    w('#[rustfmt::skip]')
    w(f'const {name}: &[&str] = &[')
    for k in range(0, len(sw), 8):
        w('    ' + ' '.join(json.dumps(x) + ',' for x in sw[k:k + 8]))
    w('];')
open(sys.argv[3], 'w').write('\n'.join(lines) + '\n')
print(n_rules, 'rules')
