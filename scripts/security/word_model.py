#!/usr/bin/env python3
"""Measures how far a learned word model would catch poisoned tools that the corpus's wording
does not show: logistic regression over the words and word pairs of each string a model
reads, trained on the tuning part of fixtures/security/ (the strings that carry a payload
against every string of the look-alikes and of the real servers' tools), cross-validated.

    python3 -m venv /tmp/word-model && /tmp/word-model/bin/pip install numpy scikit-learn
    /tmp/word-model/bin/python scripts/security/word_model.py

Five folds. Poisoned tools are split by the fixture a variant comes from (a variant and its
source are never on both sides), look-alikes by id, real tools by server: a tool is scored
only by a model that saw nothing of its server or of its source. A tool is flagged when any
of its strings scores at or above the threshold. The held-out part is not read.
"""
import glob, hashlib, json, os, re, unicodedata, collections

import numpy as np  # noqa: F401  (scikit-learn needs it)
from sklearn.feature_extraction.text import HashingVectorizer
from sklearn.linear_model import LogisticRegression

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FOLDS = 5
INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u2060-\u2064\ufeff\U000e0000-\U000e007f]")
NO_SPACES = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
SKIPPED = {"type", "$schema", "$ref", "format", "pattern", "required", "additionalProperties"}


def words(text):
    text = INVISIBLE.sub("", unicodedata.normalize("NFKC", text)).casefold()
    out = []
    for w in re.findall(r"\w+", text):
        # Scripts written without spaces are read as character pairs.
        out += [w[i:i + 2] for i in range(max(1, len(w) - 1))] if NO_SPACES.search(w) else [w]
    return out + [a + " " + b for a, b in zip(out, out[1:])]


def strings(value, pointer=""):
    """(pointer, text) of every string a model reads: values, and property names."""
    if isinstance(value, str):
        yield pointer, value
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from strings(item, f"{pointer}/{i}")
    elif isinstance(value, dict):
        for key, item in value.items():
            if pointer.endswith("/properties"):
                yield f"{pointer}/{key}", key
            if key not in SKIPPED:
                yield from strings(item, f"{pointer}/{key}")


def texts(tool):
    return [t for _, t in strings(tool) if t.strip()]


def payload(fixture):
    where = fixture.get("where", [])
    found = [t for p, t in strings(fixture["tool"])
             if any(p == w or p.startswith(w + "/") or w.startswith(p) for w in where)]
    return found or texts(fixture["tool"])


def fold(key):
    return int(hashlib.sha256(key.encode()).hexdigest(), 16) % FOLDS


def main():
    fixtures = {}
    for path in glob.glob(os.path.join(REPO, "fixtures/security/poisoned/*/*.json")) + \
            glob.glob(os.path.join(REPO, "fixtures/security/benign/*/*.json")):
        with open(path, encoding="utf-8") as f:
            fx = json.load(f)
        fixtures[fx["id"]] = fx

    def origin(fx):
        seen = set()
        while fx["source"].startswith("variant of ") and fx["id"] not in seen:
            seen.add(fx["id"])
            parent = fixtures.get(fx["source"][len("variant of "):].strip())
            if parent is None:
                break
            fx = parent
        return fx["id"]

    poisoned = [fx for fx in fixtures.values() if fx["label"] == "poisoned"]
    benign = [fx for fx in fixtures.values() if fx["label"] == "benign"]
    real = []
    for path in sorted(glob.glob(os.path.join(REPO, "fixtures/servers/*.json"))):
        with open(path, encoding="utf-8") as f:
            real += [(os.path.basename(path), t) for t in json.load(f)["tools"]]

    vectorizer = HashingVectorizer(analyzer=words, n_features=2 ** 18, alternate_sign=False)
    scores_p, scores_b, scores_r = {}, {}, []
    for k in range(FOLDS):
        xs, ys = [], []
        for fx in poisoned:
            if fold(origin(fx)) != k:
                xs += payload(fx); ys += [1] * len(payload(fx))
        for fx in benign:
            if fold(fx["id"]) != k:
                xs += texts(fx["tool"]); ys += [0] * len(texts(fx["tool"]))
        for server, tool in real:
            if fold(server) != k:
                xs += texts(tool); ys += [0] * len(texts(tool))
        model = LogisticRegression(C=1.0, max_iter=2000, class_weight="balanced")
        model.fit(vectorizer.transform(xs), ys)

        def score(tool):
            t = texts(tool)
            return float(max(model.predict_proba(vectorizer.transform(t))[:, 1])) if t else 0.0

        for fx in poisoned:
            if fold(origin(fx)) == k:
                scores_p[fx["id"]] = (fx["class"], score(fx["tool"]))
        for fx in benign:
            if fold(fx["id"]) == k:
                scores_b[fx["id"]] = score(fx["tool"])
        scores_r += [score(tool) for server, tool in real if fold(server) == k]

    print(f"{len(scores_p)} poisoned tools, {len(scores_b)} look-alikes, {len(scores_r)} real tools (tuning part only)")
    print("| threshold | poisoned caught | look-alikes flagged | real tools flagged |")
    print("|---|---|---|---|")
    for threshold in (0.5, 0.8, 0.9, 0.95, 0.98):
        caught = sum(s >= threshold for _, s in scores_p.values())
        flagged_b = sum(s >= threshold for s in scores_b.values())
        flagged_r = sum(s >= threshold for s in scores_r)
        print(f"| {threshold} | {caught}/{len(scores_p)} ({100 * caught / len(scores_p):.0f} %) "
              f"| {flagged_b}/{len(scores_b)} | {flagged_r}/{len(scores_r)} ({100 * flagged_r / len(scores_r):.1f} %) |")
    by_class = collections.defaultdict(list)
    for cls, s in scores_p.values():
        by_class[cls].append(s)
    print("\nAt the threshold that flags at most 1 % of real tools:")
    cut = sorted(scores_r, reverse=True)[len(scores_r) // 100]
    print(f"threshold {cut:.3f}")
    for cls in sorted(by_class):
        caught = sum(s > cut for s in by_class[cls])
        print(f"| {cls} | {caught}/{len(by_class[cls])} |")


if __name__ == "__main__":
    main()
