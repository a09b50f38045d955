"""Offline link check of the built book (.ci/docs-check).

check_links.py BUILD_DIR DOCS_DIR [MARKDOWN_FILE …]
- every relative href/src in BUILD_DIR's pages names a file there, and its #fragment an id of it;
- every .md under DOCS_DIR is a chapter of SUMMARY.md (an unlisted page is never built);
- every relative link of each MARKDOWN_FILE (the README, the changelog) names a file that exists.
"""

import html.parser
import pathlib
import re
import sys
import urllib.parse


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.links = set(), []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("id", "name"):
            if attrs.get(name):
                self.ids.add(attrs[name])
        for name in ("href", "src"):
            if attrs.get(name) is not None:
                self.links.append(attrs[name])


def external(link):
    return re.match(r"^[a-z][a-z0-9+.-]*:", link) is not None or link.startswith("//")


def main():
    build, docs, *markdown = sys.argv[1:]
    build, docs = pathlib.Path(build), pathlib.Path(docs)
    pages = {}
    for path in build.rglob("*.html"):
        page = Page()
        page.feed(path.read_text(encoding="utf-8"))
        pages[path.resolve()] = page
    broken = []
    checked = 0
    for path, page in pages.items():
        # mdBook's print page, 404 page and theme assets are its own; their links are too.
        rel = path.relative_to(build.resolve())
        if rel.name in ("print.html", "404.html") or rel.parts[0] in ("theme", "FontAwesome", "fonts"):
            continue
        for link in page.links:
            if not link or external(link):
                continue
            target, _, fragment = link.partition("#")
            target = urllib.parse.unquote(target.split("?")[0])
            dest = (path.parent / target).resolve() if target else path
            if dest.is_dir():
                dest = dest / "index.html"
            checked += 1
            if not dest.exists():
                broken.append(f"{rel}: {link} (no such file)")
            elif fragment and dest.suffix == ".html":
                ids = pages.get(dest).ids if dest in pages else set()
                if urllib.parse.unquote(fragment) not in ids:
                    broken.append(f"{rel}: {link} (no id {fragment!r} there)")
    summary = (docs / "SUMMARY.md").read_text(encoding="utf-8")
    listed = {m for m in re.findall(r"\]\(([^)#]+\.md)\)", summary)}
    for path in docs.rglob("*.md"):
        rel = path.relative_to(docs).as_posix()
        if rel != "SUMMARY.md" and rel not in listed:
            broken.append(f"docs/{rel}: not in docs/SUMMARY.md, so never built")
    for name in markdown:
        text = pathlib.Path(name).read_text(encoding="utf-8")
        text = re.sub(r"```.*?```", "", text, flags=re.S)
        for link in re.findall(r"\]\(([^)\s]+)\)", text):
            if external(link) or link.startswith("#"):
                continue
            checked += 1
            target = pathlib.Path(name).parent / link.split("#")[0]
            if not target.exists():
                broken.append(f"{name}: {link} (no such file)")
    for line in broken:
        print("docs-check: broken:", line, file=sys.stderr)
    print(f"docs-check: {checked} links in {len(pages)} pages and {len(markdown)} files, {len(broken)} broken")
    sys.exit(1 if broken else 0)


main()
