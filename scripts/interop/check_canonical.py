"""Differential check of the canonical form: toolpact's contract hashes against the `rfc8785`
package.

A lock file pins each tool by the SHA-256 of its canonical JSON, and docs/lock-files.md says
anyone can check the hash without toolpact: put the strings in Unicode NFC, canonicalise with
any RFC 8785 implementation, hash. This script does that for generated values: hypothesis
draws JSON values (doubles at the edges of f64, integers past 2^53, unicode text including
astral and combining characters, deep nesting), each goes into a tool as its schema's
`default`, `toolpact lock` pins them all in one run, and every hash must equal the one computed
here with `rfc8785`.

    check_canonical.py TOOLPACT [--examples N] [-v]

Exit status: 0 every hash agrees, 1 some does not, 2 bad usage.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import subprocess
import sys
import tempfile
import unicodedata
import warnings
from pathlib import Path

import rfc8785
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

# Integers a double holds exactly; RFC 8785 (I-JSON) numbers beyond are doubles.
SAFE = 2**53 - 1

EDGE_FLOATS = [
    0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 2.225073858507201e-308,
    1.7976931348623157e308, -1.7976931348623157e308, 1e21, 1e20, 9.999999999999999e20,
    1e-7, 1e-6, 0.000001, 1.5e-7, 0.1, 0.2 + 0.1, 1 / 3, 2**53, 2**53 + 2.0, 123456789.12345679,
    4.35, 0.3, 1e23, 5e-7, 2**-1074 * 3,
]
EDGE_INTS = [0, 1, -1, SAFE, -SAFE, SAFE + 1, SAFE + 2, 2**63 - 1, 2**63, 2**64, -(2**63), 10**30]

# No lone surrogates: JSON text carries them only as escapes, which no reader takes as UTF-8.
TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",)) | st.sampled_from("é\u0301\u00e9\u212b\u1e9b\u0323\u20ac\U0001f600\u2028\x00\x1f\x7f\"\\/"),
    max_size=12,
)
NUMBERS = (
    st.floats(allow_nan=False, allow_infinity=False)
    | st.integers()
    | st.sampled_from(EDGE_FLOATS)
    | st.sampled_from(EDGE_INTS)
)
LEAVES = st.none() | st.booleans() | NUMBERS | TEXT
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=40,
)


def deep(depth: int, leaf):
    """A value nested `depth` levels, objects and arrays in turn."""
    value = leaf
    for i in range(depth):
        value = {"k": value} if i % 2 else [value]
    return value


def expected(value):
    """The value as toolpact's canonical form reads it before RFC 8785: strings in NFC (keys
    that become equal under NFC are kept as written), integers beyond 2^53 as doubles."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return value if abs(value) <= SAFE else float(value)
    if isinstance(value, float):
        if value.is_integer() and abs(value) <= SAFE:
            return int(value)
        return value
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, list):
        return [expected(v) for v in value]
    normalized = [unicodedata.normalize("NFC", k) for k in value]
    out = {}
    for (raw, item), key in zip(value.items(), normalized):
        out[raw if normalized.count(key) > 1 else key] = expected(item)
    return out


def python_hash(contract) -> str:
    return "sha256:" + hashlib.sha256(rfc8785.dumps(expected(contract))).hexdigest()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--examples", type=int, default=400, help="generated values (default 400)")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()

    values: list = [[x] for x in EDGE_FLOATS] + [[x] for x in EDGE_INTS]
    values += [deep(100, "bottom"), deep(100, 1e-7)]

    @settings(max_examples=args.examples, phases=[Phase.generate], database=None, derandomize=True,
              deadline=None, suppress_health_check=list(HealthCheck))
    @given(VALUES)
    def collect(value):
        values.append(value)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        collect()

    tools = []
    for i, value in enumerate(values):
        tools.append({"name": f"c{i}", "inputSchema": {"type": "object", "default": value}})
    with tempfile.TemporaryDirectory() as tmp:
        catalog = Path(tmp, "catalog.json")
        # Python writes each double in the shortest form that reads back as the same double.
        catalog.write_text(json.dumps({"tools": tools}, ensure_ascii=False), encoding="utf-8")
        run = subprocess.run([args.binary, "lock", str(catalog), "-o", "-"], capture_output=True)
    if run.returncode != 0:
        print(f"canonical: toolpact lock failed: {run.stderr.decode(errors='replace')}", file=sys.stderr)
        return 2
    locked = {t["name"]: t for t in json.loads(run.stdout)["tools"]}

    failures = 0
    for tool in tools:
        ours = locked[tool["name"]]["hash"]
        theirs = python_hash(tool)
        if ours != theirs:
            failures += 1
            mine = rfc8785.dumps(expected(locked[tool["name"]]["contract"])).decode()
            print(f"DIFFERENT: {tool['name']}: toolpact {ours}, rfc8785 {theirs}")
            print(f"  value:           {json.dumps(tool['inputSchema']['default'], ensure_ascii=False)[:400]}")
            print(f"  rfc8785 of input: {rfc8785.dumps(expected(tool)).decode()[:400]}")
            print(f"  rfc8785 of lock:  {mine[:400]}")
        elif args.verbose:
            print(f"same: {tool['name']}")
    print(f"canonical: {len(tools)} values, {len(tools) - failures} hashes agree with rfc8785, {failures} differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
