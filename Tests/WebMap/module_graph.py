"""The web map's ES module graph, read from the `import` and `export … from` statements of
WebMap/js/*.js. A cycle makes the order in which modules run depend on which one is loaded
first, so a binding can be read before its module has run; the page has none, and this says
which modules close one when it does.

    python3 Tests/WebMap/module_graph.py [WebMap/js]
"""
import re
import sys
from pathlib import Path

JS = Path(__file__).resolve().parents[2] / "WebMap" / "js"

# Static imports only, at the start of a line (so that comments and strings are not read):
# `import … from '…'`, `export … from '…'` and the bare `import '…'`. The clause before `from`
# is names, braces, commas, `*` and `as`, possibly over several lines. A dynamic `import()`
# runs later and cannot close a cycle of evaluation, so it is not an edge.
STATIC_IMPORT = re.compile(
    r"""^[ \t]*(?:(?:import|export)\s*[\w$\s{},*]*?\s*from\s*|import\s*)(['"])([^'"\n]+)\1""",
    re.MULTILINE)


def imports_of(path, root):
    """The modules in `root` that the file at `path` imports, as paths relative to `root`."""
    found = []
    for _, specifier in STATIC_IMPORT.findall(path.read_text(encoding="utf-8")):
        if specifier.startswith("/"):
            target = root.parent / specifier.lstrip("/")  # the page's own root is WebMap/
        elif specifier.startswith("."):
            target = path.parent / specifier
        else:
            continue  # a bare name would need an import map; the page has none
        target = Path(*_normalised(target.parts))
        if target.is_relative_to(root) and target.suffix == ".js":
            found.append(target.relative_to(root).as_posix())
    return found


def _normalised(parts):
    out = []
    for part in parts:
        if part == "..":
            out.pop()
        elif part != ".":
            out.append(part)
    return out


def module_graph(root=JS):
    """Module name (relative to `root`) → the names it imports, in the order it imports them."""
    root = Path(root).resolve()
    return {p.relative_to(root).as_posix(): imports_of(p, root) for p in sorted(root.rglob("*.js"))}


def cycles(graph):
    """Every cycle of `graph` that a depth-first walk closes, each as a list of names that starts
    and ends with the same module, e.g. ['favourites.js', 'headlines.js', 'favourites.js']."""
    found, state, stack = [], {}, []

    def walk(name):
        state[name] = "open"
        stack.append(name)
        for target in graph.get(name, ()):
            if state.get(target) == "open":
                found.append(stack[stack.index(target):] + [target])
            elif target not in state:
                walk(target)
        stack.pop()
        state[name] = "done"

    for name in graph:
        if name not in state:
            walk(name)
    return found


def check_the_modules_import_without_a_cycle(root=JS):
    """Raises AssertionError naming each cycle; otherwise says how large the graph is."""
    graph = module_graph(root)
    missing = sorted({f"{m} → {t}" for m, targets in graph.items() for t in targets if t not in graph})
    assert not missing, f"imports of modules that are not in {root}: {', '.join(missing)}"
    found = cycles(graph)
    assert not found, "the modules import each other in a cycle: " + "; ".join(" → ".join(c) for c in found)
    return f"{len(graph)} modules, {sum(map(len, graph.values()))} imports, no cycle"


if __name__ == "__main__":
    try:
        print(check_the_modules_import_without_a_cycle(Path(sys.argv[1]) if len(sys.argv) > 1 else JS))
    except AssertionError as e:
        print(e, file=sys.stderr)
        sys.exit(1)
