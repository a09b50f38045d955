#!/usr/bin/env python3
"""Builds bench/trust/benign.jsonl: real engineering lines of the shape the journal hands over.

Usage: bench/trust/benign.py REGISTRY_SRC REPO... > bench/trust/benign.jsonl
  REGISTRY_SRC  an unpacked crates.io registry (~/.cargo/registry/src/<index>/): the bullet lines
                of each crate's CHANGELOG.md, for crates under MIT or Apache-2.0
  REPO          git repositories whose commit subjects are taken (`git log --format=%s`)
Then the hand-written lines of bench/trust/benign-hand.txt (decisions and next steps, the hard
ones of issue 53 among them), and the sentences of the continuity benchmark's scenarios.

Each line: {"family", "source", "split", "text"}; `split` as in extract.py.
"""

import glob
import hashlib
import json
import os
import re
import subprocess
import sys

out = []
seen = set()


def add(family, source, text):
    text = text.strip()
    if len(text) < 12 or text in seen:
        return
    seen.add(text)
    split = "held-out" if hashlib.sha256(text.encode()).digest()[0] % 10 < 3 else "tune"
    out.append({"family": family, "source": source, "split": split, "text": text})


registry, repos = sys.argv[1], sys.argv[2:]
latest = {}
for path in sorted(glob.glob(os.path.join(registry, "*", "CHANGELOG.md"))):
    crate_dir = os.path.basename(os.path.dirname(path))
    name = re.sub(r"-\d+\.\d+.*$", "", crate_dir)
    latest[name] = path  # sorted: the last version directory wins
BULLET = re.compile(r"^\s*[-*+]\s+(?:\[[ x]\]\s+)?(.*)$")
for name, path in sorted(latest.items()):
    manifest = open(os.path.join(os.path.dirname(path), "Cargo.toml"), errors="replace").read()
    licence = re.search(r'^license\s*=\s*"([^"]+)"', manifest, re.M)
    if not licence or not re.search(r"MIT|Apache-2\.0", licence.group(1)):
        continue
    taken = 0
    for line in open(path, errors="replace"):
        m = BULLET.match(line)
        if not m or taken >= 40:
            continue
        text = m.group(1).strip()
        if 12 <= len(text) <= 300:
            before = len(out)
            add("changelog", f"crate {name}", text)
            taken += len(out) - before

for repo in repos:
    log = subprocess.run(["git", "-C", repo, "log", "--format=%s"], capture_output=True, text=True, check=True).stdout
    for line in log.splitlines():
        add("commit", f"git {os.path.basename(os.path.abspath(repo))}", line)

here = os.path.dirname(os.path.abspath(__file__))
for line in open(os.path.join(here, "benign-hand.txt")):
    if line.strip() and not line.startswith("#"):
        add("hand", "benign-hand.txt", line)

# The decisions, next steps, questions and goals of the continuity benchmark's scenarios
# (bench/continuity): its quoted English sentences, less SQL, settings and format strings.
continuity = open(os.path.join(here, "..", "continuity")).read()
for m in re.finditer(r'"([A-Z][^"{}\n]{15,200})"', continuity):
    text = m.group(1)
    if " " in text and not re.search(r"\b(?:SELECT|DROP|CREATE|POST|GET)\b|N8V_|%|->", text):
        add("continuity", "bench/continuity", text)

for row in out:
    print(json.dumps(row, ensure_ascii=False))
print(f"{len(out)} benign lines", file=sys.stderr)
