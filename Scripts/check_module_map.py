#!/usr/bin/env python3
"""docs/design.md's module map against Package.swift.

    python3 Scripts/check_module_map.py

Reads the package's targets from `swift package dump-package` and the text form of the map in
docs/design.md (the fenced `text` block under "## Modules": one line per target, "name → what it
depends on within the package", with "nothing" for none and anything in parentheses a comment),
and the module table below it (one row per target, its name in backticks in the first column).
Every Swift target of the package that is not a test (the C shims and the test-only support
under Tests/ aside) must have its line, naming exactly its Swift dependencies in the package
(a line may also name the C shims it uses), and its row; the page may name no target the package
lacks, but for the benchmark package's own (Benchmarks/Package.swift). Exits 0 when they agree, 1 with one line
per difference, 2 when the page or the package cannot be read.
"""
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "design.md"


def dump(package):
    """The targets of the package in folder `package`, as `swift package dump-package` gives them."""
    try:
        out = subprocess.run(["swift", "package", "dump-package"], cwd=package, check=True,
                             capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f"check_module_map: swift package dump-package in {package} failed: {e}")
    return json.loads(out)["targets"]


def package_targets():
    """({target: set of the Swift targets of the package it depends on}, the C targets)."""
    targets = dump(ROOT)
    swift = {t["name"] for t in targets
             if t["type"] in ("regular", "executable") and not (t.get("path") or "").startswith("Tests/")}
    graph = {}
    for t in targets:
        if t["name"] not in swift:
            continue
        deps = set()
        for d in t["dependencies"]:
            kind, value = next(iter(d.items()))
            if kind in ("byName", "target") and value[0] in swift:
                deps.add(value[0])
        graph[t["name"]] = deps
    return graph, {t["name"] for t in targets if t["type"] == "system"}


def page_map(text):
    """({target: set of dependencies} from the text block, set of the table's targets)."""
    section = text.split("## Modules", 1)
    if len(section) < 2:
        sys.exit(f"check_module_map: {PAGE} has no '## Modules' section")
    body = section[1].split("\n## ", 1)[0]
    block = re.search(r"```text\n(.*?)```", body, re.S)
    if not block:
        sys.exit(f"check_module_map: the Modules section of {PAGE} has no ```text block")
    graph = {}
    for n, line in enumerate(block.group(1).splitlines(), 1):
        if not line.strip():
            continue
        if "→" not in line:
            sys.exit(f"check_module_map: {PAGE}, text block line {n}: no '→' in {line!r}")
        names, deps = line.split("→", 1)
        deps = re.sub(r"\([^)]*\)", "", deps).strip()
        wanted = set() if deps == "nothing" else {d.strip() for d in deps.split(",") if d.strip()}
        for name in (x.strip() for x in names.split(",")):
            graph[name] = wanted
    rows = set(re.findall(r"^\| `([^`]+)` \|", body, re.M))
    return graph, rows


def main():
    package, c_targets = package_targets()
    # The benchmark package's own targets may have a row (geonews-bench); they have no line.
    benchmarks = {t["name"] for t in dump(ROOT / "Benchmarks")}
    try:
        text = PAGE.read_text(encoding="utf-8")
    except OSError as e:
        sys.exit(f"check_module_map: cannot read {PAGE}: {e}")
    page, rows = page_map(text)
    faults = []
    for name in sorted(package):
        if name not in page:
            faults.append(f"{name}: in Package.swift, missing from the map's text block")
        elif page[name] - c_targets != package[name]:
            missing = ", ".join(sorted(package[name] - page[name])) or "none"
            extra = ", ".join(sorted(page[name] - c_targets - package[name])) or "none"
            faults.append(f"{name}: the page's dependencies differ from Package.swift's (missing: {missing}; not in the package: {extra})")
        if name not in rows:
            faults.append(f"{name}: no row in the module table")
    for name in sorted(set(page) - set(package)):
        faults.append(f"{name}: on the page, not a Swift target of Package.swift")
    for name in sorted(rows - set(package) - benchmarks):
        faults.append(f"{name}: a row of the module table, not a Swift target of Package.swift")
    if faults:
        print(f"{PAGE.relative_to(ROOT)} disagrees with Package.swift:")
        for f in faults:
            print(f"  {f}")
        return 1
    print(f"{PAGE.relative_to(ROOT)}: the module map is Package.swift's ({len(package)} targets)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
