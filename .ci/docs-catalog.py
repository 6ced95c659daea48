#!/usr/bin/env python3
"""Helpers of .ci/docs.

assemble: copies a DocC catalog to a scratch directory and adds the guides of Docs/ as its
articles (the guides stay the one source), rewriting their links for DocC: a link to another
guide becomes a <doc:> link, a link to a file outside Docs/ keeps its text only. The landing
page gets a "Guides" topic group listing them.

check: reads the converted archive's landing page and fails when DocC had to put a public symbol
into an automatic group (one the catalog did not curate).
"""
import argparse
import json
import re
import shutil
import sys
from pathlib import Path

LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def rewrite_links(text: str, guides: set[str]) -> str:
    def replace(match: re.Match) -> str:
        label, target = match.group(1), match.group(2)
        if re.match(r"^[a-z]+:", target):
            return match.group(0)  # an absolute URL stays
        page = target.split("#", 1)[0]
        if page.endswith(".md") and "/" not in page and page[:-3] in guides:
            return f"<doc:{page[:-3]}>"
        return label  # README, CHANGELOG, sources: not part of the catalog
    return LINK.sub(replace, text)


def assemble(catalog: Path, output: Path, articles: Path | None) -> None:
    if output.exists():
        shutil.rmtree(output)
    shutil.copytree(catalog, output)
    if articles is None:
        return
    guides = sorted(p.stem for p in articles.glob("*.md"))
    for name in guides:
        text = (articles / f"{name}.md").read_text(encoding="utf-8")
        (output / f"{name}.md").write_text(rewrite_links(text, set(guides)), encoding="utf-8")
    landing = output / f"{catalog.stem}.md"
    text = landing.read_text(encoding="utf-8")
    listing = "\n".join(f"- <doc:{name}>" for name in guides)
    marker = "## Topics\n"
    if marker not in text:
        sys.exit(f"error: {landing.name} has no '## Topics' section")
    text = text.replace(marker, f"{marker}\n### Guides\n\n{listing}\n", 1)
    landing.write_text(text, encoding="utf-8")


def check(archive: Path, module: str) -> None:
    page = archive / "data" / "documentation" / f"{module.lower()}.json"
    node = json.loads(page.read_text(encoding="utf-8"))
    uncurated = []
    for section in node.get("topicSections", []):
        if section.get("generated"):
            for identifier in section.get("identifiers", []):
                uncurated.append(f"{section.get('title')}: {identifier.rsplit('/', 1)[-1]}")
    if uncurated:
        print(f"error: public symbols of {module} in no topic group of {module}.docc/{module}.md:", file=sys.stderr)
        for line in uncurated:
            print(f"  {line}", file=sys.stderr)
        sys.exit(1)
    groups = len(node.get("topicSections", []))
    print(f"{module}: every top-level symbol placed in {groups} topic groups")


def main() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    a = sub.add_parser("assemble")
    a.add_argument("--catalog", type=Path, required=True)
    a.add_argument("--output", type=Path, required=True)
    a.add_argument("--articles", type=Path)
    c = sub.add_parser("check")
    c.add_argument("--archive", type=Path, required=True)
    c.add_argument("--module", required=True)
    args = parser.parse_args()
    if args.command == "assemble":
        assemble(args.catalog, args.output, args.articles)
    else:
        check(args.archive, args.module)


if __name__ == "__main__":
    main()
