#!/usr/bin/env python3
"""Fails when the modules of a Rust crate import each other in a cycle.

Usage: check-module-cycles.py CRATE_SRC [CRATE_SRC ...]   (e.g. crates/toolpact/src)

Each source file is one module (`a/mod.rs` is the module `a`; `lib.rs` is the crate root).
A module depends on another when its code names an item of it: a `use` declaration or a
path in the code (`crate::a::b::Item`, `super::Item`, `self::child::Item`, `child::Item` for
a module declared inside it, or `name::Item` for a module imported by `use … name;` or
`use … as name;`). A path is resolved to the module that defines the item: the longest prefix
that is a module, followed through re-exports (`pub use`, by name or under `as`, and `pub use
a::*` when `a` declares the name), so that an item imported through a facade counts as a
dependency on the module that really defines it. Importing a module by name is not by itself
a dependency on it: what the code then names through it is.

What is not a dependency:
- the crate root (`lib.rs`): it declares the modules and re-exports the public API, so every
  module would otherwise depend on it and it on every module;
- a module's `mod child;` declarations and its re-exports (`pub use`, `pub(crate) use`):
  they publish a child's items, they do not use them (even where the module's own code names
  the item too: telling that use from an enum variant or a field of the same name would take
  a parser);
- code under `#[cfg(test)]`, inline or in the file of a `#[cfg(test)] mod tests;` (unit
  tests may reach anywhere), comments and string literals (raw and byte strings too).

scripts/module-cycles/run.sh tests this script on two small source trees.

Prints every cycle (each strongly connected set of modules, with one cycle through it and the
file and line of each edge) and exits 1; prints a one-line summary and exits 0 when there is
none.
"""

import re
import sys
from pathlib import Path


def is_inside_word(text, i):
    """Whether `text[i]` continues an identifier (`br"…"` and `cr"…"` are raw strings too)."""
    def word(k):
        return k >= 0 and (text[k].isalnum() or text[k] == "_")

    if not word(i - 1):
        return False
    return not (text[i - 1] in "bc" and not word(i - 2))


def strip_comments_and_strings(text):
    """Blanks comments and string/char literal contents, keeping newlines and offsets."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 12]) and not is_inside_word(text, i):
            hashes = re.match(r"r(#*)\"", text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            end = n if end < 0 else end + 1 + len(hashes)
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:i + 4]) or (c == "'" and re.match(r"'\\u\{[0-9a-fA-F]+\}'", text[i:i + 12])):
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'", text[i:])
            out.append(" " * len(m.group(0)))
            i += len(m.group(0))
        else:
            out.append(c)
            i += 1
    return "".join(out)


def blank_test_code(text):
    """Blanks the items under `#[cfg(test)]` (a whole `mod tests { … }` or a single item)."""
    for m in list(re.finditer(r"#\[cfg\(test\)\]", text)):
        start = m.start()
        j = m.end()
        # The item ends at its closing brace, or at `;` for `mod tests;` / a `use`.
        depth = 0
        while j < len(text):
            ch = text[j]
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    j += 1
                    break
            elif ch == ";" and depth == 0:
                j += 1
                break
            j += 1
        text = text[:start] + re.sub(r"[^\n]", " ", text[start:j]) + text[j:]
    return text


def module_of(path, src):
    rel = path.relative_to(src).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] in ("mod", "lib", "main") and (len(parts) == 1 or parts[-1] == "mod"):
        parts = parts[:-1]
    return tuple(parts)


def parse_use_tree(s):
    """Expands a use tree (`a::{b, c::d as e}`) into (path segments, is_glob, local name)."""
    # `as` is a keyword only between spaces: mark it before the spaces go.
    s = re.sub(r"\s+as\s+", "@", s)
    s = re.sub(r"\s+", "", s)
    results = []

    def expand(prefix, tree):
        items, depth, cur = [], 0, ""
        for ch in tree:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            if ch == "," and depth == 0:
                items.append(cur)
                cur = ""
            else:
                cur += ch
        if cur:
            items.append(cur)
        for item in items:
            if not item:
                continue
            brace = item.find("{")
            if brace >= 0:
                head = item[:brace].rstrip(":")
                sub = item[brace + 1:item.rfind("}")]
                expand(prefix + [p for p in head.split("::") if p], sub)
                continue
            item, _, alias = item.partition("@")
            segs = [p for p in item.split("::") if p]
            if segs and segs[-1] == "*":
                results.append((prefix + segs[:-1], True, None))
                continue
            if segs and segs[-1] == "self":
                segs = segs[:-1]
            segs = prefix + segs
            if segs:
                results.append((segs, False, alias or segs[-1]))

    expand([], s)
    return results


USE_RE = re.compile(r"(?P<vis>\bpub(?:\([^)]*\))?\s+)?\buse\s+(?P<tree>[^;]+);")
PATH_RE = re.compile(r"(?<![\w:$])((?:crate|super|self)(?:::[A-Za-z_]\w*|::\*)+)")
TEST_MOD_RE = re.compile(
    r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;"
)


def defines(text, name):
    """Whether module text declares an item called `name` (for names behind a glob)."""
    return re.search(
        r"\b(?:fn|struct|enum|union|trait|type|const|static|mod|macro_rules!)\s+"
        + re.escape(name) + r"\b",
        text,
    ) is not None


class Crate:
    def __init__(self, src):
        self.src = Path(src)
        self.files = {}
        for path in sorted(self.src.rglob("*.rs")):
            self.files[module_of(path, self.src)] = path
        raw = {m: path.read_text(encoding="utf-8") for m, path in self.files.items()}
        # Files of test modules (`#[cfg(test)] mod tests;`) are test code, like inline ones.
        test_only = set()
        for m, text in raw.items():
            for t in TEST_MOD_RE.finditer(strip_comments_and_strings(text)):
                test_only.add(m + (t.group(1),))
        for m in list(self.files):
            if any(m[:k] in test_only for k in range(1, len(m) + 1)):
                del self.files[m]
        self.texts = {m: blank_test_code(strip_comments_and_strings(raw[m])) for m in self.files}
        self.children = {m: set() for m in self.files}
        for m in self.files:
            if m:
                self.children.setdefault(m[:-1], set()).add(m[-1])
        # Re-exports: module -> {exported name: absolute path}, and the modules it re-exports
        # whole (`pub use a::*`).
        self.reexports = {m: {} for m in self.files}
        self.glob_reexports = {m: [] for m in self.files}
        for m, text in self.texts.items():
            for u in USE_RE.finditer(text):
                if not u.group("vis"):
                    continue
                for segs, glob, alias in parse_use_tree(u.group("tree")):
                    absolute = self.absolute(m, segs)
                    if absolute is None:
                        continue
                    if glob:
                        self.glob_reexports[m].append(absolute)
                    else:
                        self.reexports[m][alias] = absolute

    def absolute(self, module, segs):
        """The absolute path (tuple of segments) of `segs` as written in `module`, or None."""
        if not segs:
            return None
        segs = list(segs)
        if segs[0] == "crate":
            return tuple(segs[1:])
        base = list(module)
        if segs[0] in ("self", "super"):
            while segs and segs[0] in ("self", "super"):
                if segs[0] == "super":
                    if not base:
                        return None
                    base = base[:-1]
                segs = segs[1:]
            return tuple(base + segs)
        if segs[0] in self.children.get(module, ()):
            return tuple(base + segs)
        return None

    def resolve(self, path, depth=0):
        """The module defining the item at the absolute `path`."""
        for k in range(len(path), -1, -1):
            if tuple(path[:k]) in self.files:
                best = tuple(path[:k])
                rest = tuple(path[k:])
                break
        else:
            return None
        if not rest or depth >= 16:
            return best
        target = self.reexports.get(best, {}).get(rest[0])
        if target is not None and target != best + (rest[0],):
            resolved = self.resolve(tuple(target) + rest[1:], depth + 1)
            if resolved is not None:
                return resolved
        if target is None and not defines(self.texts[best], rest[0]):
            # Not defined here: the name comes through a glob re-export, from the module
            # that defines it or re-exports it by name.
            for glob in self.glob_reexports.get(best, ()):
                module = self.resolve(glob, depth + 1)
                if module is None or module == best:
                    continue
                if defines(self.texts[module], rest[0]) or rest[0] in self.reexports[module]:
                    return self.resolve(module + rest, depth + 1)
        return best

    def edges(self):
        found = {}
        for m, text in self.texts.items():
            if m == ():
                continue  # the crate root: declarations and the public facade

            def add(segs, offset):
                absolute = self.absolute(m, segs)
                if absolute is None:
                    return
                target = self.resolve(absolute)
                if target is None or target == m or target == ():
                    return
                # A module naming its own descendant through a path is an edge; naming an
                # ancestor is an edge too (the child depends on the parent's items).
                line = text.count("\n", 0, offset) + 1
                found.setdefault((m, target), line)

            spans = [(u.start(), u.end()) for u in USE_RE.finditer(text)]

            def outside_use(pos):
                return not any(a <= pos < b for a, b in spans)

            # Names under which other modules are reached by a path (`name::Item`): the
            # module's children, and modules it imports by name (`use crate::a;`).
            prefixes = {child: [child] for child in self.children.get(m, ())}
            for u in USE_RE.finditer(text):
                reexport = bool(u.group("vis"))
                for segs, glob, alias in parse_use_tree(u.group("tree")):
                    absolute = self.absolute(m, segs)
                    if not glob and absolute is not None and absolute in self.files:
                        # A module imported by name: what the code names through it counts.
                        prefixes[alias] = segs
                        continue
                    if not reexport:
                        add(segs, u.start())
            for p in PATH_RE.finditer(text):
                if outside_use(p.start()):
                    segs = [s for s in p.group(1).split("::") if s != "*"]
                    add(segs, p.start())
            if prefixes:
                prefix_re = re.compile(
                    r"(?<![\w:$])(" + "|".join(map(re.escape, sorted(prefixes)))
                    + r")((?:::[A-Za-z_]\w*)+)"
                )
                for p in prefix_re.finditer(text):
                    if outside_use(p.start()):
                        rest = [s for s in p.group(2).split("::") if s]
                        add(prefixes[p.group(1)] + rest, p.start())
        return found


def strongly_connected(nodes, graph):
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(comp)

    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            visit(v)
    return out


def one_cycle(comp, graph):
    members = set(comp)
    start = min(comp)
    # BFS back to start
    prev = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph.get(v, ())):
            if w not in members:
                continue
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return [start]


def name(m):
    return "::".join(m) if m else "crate"


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    failed = False
    for src in argv[1:]:
        crate = Crate(src)
        edges = crate.edges()
        graph = {}
        for (a, b) in edges:
            graph.setdefault(a, set()).add(b)
        comps = [c for c in strongly_connected(sorted(crate.files), graph) if len(c) > 1]
        if not comps:
            print(f"{src}: {len(crate.files)} modules, {len(edges)} dependencies, no cycle")
            continue
        failed = True
        for comp in sorted(comps, key=len, reverse=True):
            print(f"{src}: {len(comp)} modules depend on each other in a cycle: "
                  + ", ".join(sorted(name(m) for m in comp)))
            cycle = one_cycle(comp, graph)
            for a, b in zip(cycle, cycle[1:]):
                line = edges[(a, b)]
                print(f"    {name(a)} -> {name(b)}   ({crate.files[a]}:{line})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
