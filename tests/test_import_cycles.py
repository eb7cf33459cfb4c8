"""No import cycles in ``bot``: no module imports, directly or through others, a module
that imports it. A cycle makes two modules one (neither can be read, tested or changed
alone) and turns the import order into a source of bugs. The graph is grimp's (the one
import-linter checks the layers with), type-checking-only imports included."""

from __future__ import annotations

import grimp


def strongly_connected(graph: grimp.ImportGraph, package: str) -> list[list[str]]:
    """The graph's strongly connected components of more than one module (Tarjan's,
    iteratively): each is a set of modules that all reach each other through imports."""
    modules = sorted(m for m in graph.modules if m == package or m.startswith(package + "."))
    inside = set(modules)
    edges = {m: sorted(i for i in graph.find_modules_directly_imported_by(m) if i in inside) for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in modules:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, next_edge = work.pop()
            if next_edge == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            for position in range(next_edge, len(edges[node])):
                target = edges[node][position]
                if target not in index:
                    work.append((node, position + 1))
                    work.append((target, 0))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
    return components


def describe(graph: grimp.ImportGraph, component: list[str]) -> str:
    """A cycle's imports, one line each: who imports whom, at which line."""
    lines = []
    for importer in component:
        for imported in component:
            for detail in graph.get_import_details(importer=importer, imported=imported):
                lines.append(f"  {importer} -> {imported} (line {detail['line_number']}: {detail['line_contents']})")
    return "\n".join(lines)


def test_bot_has_no_import_cycles():
    graph = grimp.build_graph("bot", include_external_packages=False)
    cycles = strongly_connected(graph, "bot")
    assert not cycles, "modules importing each other:\n" + "\n\n".join(describe(graph, c) for c in cycles)


def test_a_cycle_is_found_and_named():
    """The check itself: a made-up graph with a cycle of three and one without."""
    graph = grimp.ImportGraph()
    for module in ("pkg", "pkg.a", "pkg.b", "pkg.c", "pkg.d"):
        graph.add_module(module)
    for importer, imported in (("pkg.a", "pkg.b"), ("pkg.b", "pkg.c"), ("pkg.c", "pkg.a"), ("pkg.d", "pkg.a")):
        graph.add_import(importer=importer, imported=imported, line_number=1, line_contents=f"import {imported}")
    assert strongly_connected(graph, "pkg") == [["pkg.a", "pkg.b", "pkg.c"]]
    assert "pkg.c -> pkg.a (line 1: import pkg.a)" in describe(graph, ["pkg.a", "pkg.b", "pkg.c"])
