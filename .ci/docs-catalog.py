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
# .ci/snippets' markers and hidden declarations: for the compiler, not the reader (and DocC would
# read an `@MainActor` line in them as a directive).
SNIPPET_COMMENT = re.compile(r"^<!--\s*snippet(?:-context|:)[^\n]*?(?:-->\n|\n.*?^-->\n)", re.S | re.M)


def rewrite_links(text: str, source: Path, articles: dict[Path, str]) -> str:
    def replace(match: re.Match) -> str:
        label, target = match.group(1), match.group(2)
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            return match.group(0)  # an absolute URL or a heading of this page stays
        page = (source.parent / target.split("#", 1)[0]).resolve()
        if page in articles:
            return f"<doc:{articles[page]}>"
        return label  # README, CHANGELOG, sources, translations: not part of the catalog
    return LINK.sub(replace, text)


# Guides whose name in the catalog is not their file's.
RENAMED = {"Outbox": "OutboxGuide"}


def article_names(folder: Path) -> dict[Path, str]:
    """The guides of Docs/ and Docs/Migration/ (the English ones), by path, with their names in
    the catalog; Migration/README.md is the migration index."""
    # A guide named like a type (Outbox.md, the class Outbox) would replace the type's page.
    names = {p.resolve(): RENAMED.get(p.stem, p.stem) for p in folder.glob("*.md")}
    for p in (folder / "Migration").glob("*.md"):
        names[p.resolve()] = "MigrationGuides" if p.stem == "README" else p.stem
    return names


def assemble(catalog: Path, output: Path, articles: Path | None) -> None:
    if output.exists():
        shutil.rmtree(output)
    shutil.copytree(catalog, output)
    if articles is None:
        return
    names = article_names(articles)
    for path, name in names.items():
        text = SNIPPET_COMMENT.sub("", path.read_text(encoding="utf-8"))
        (output / f"{name}.md").write_text(rewrite_links(text, path, names), encoding="utf-8")
    landing = output / f"{catalog.stem}.md"
    text = landing.read_text(encoding="utf-8")
    guides = sorted(n for p, n in names.items() if p.parent == articles.resolve())
    migration = ["MigrationGuides"] + sorted(n for n in names.values() if n not in guides and n != "MigrationGuides")
    listing = "\n".join(f"- <doc:{name}>" for name in guides)
    migrations = "\n".join(f"- <doc:{name}>" for name in migration)
    marker = "## Topics\n"
    if marker not in text:
        sys.exit(f"error: {landing.name} has no '## Topics' section")
    text = text.replace(marker, f"{marker}\n### Guides\n\n{listing}\n\n### Migrating\n\n{migrations}\n", 1)
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
