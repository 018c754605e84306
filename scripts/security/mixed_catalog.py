#!/usr/bin/env python3
"""Writes a catalog whose texts need many different sets of the poisoning phrase patterns:
each tool's description joins three to six sentences drawn at random (seed 7) from the
descriptions of the poisoned corpus, and its one property's description is another such
sentence. It measures how the phrase lists behave when texts mix many techniques.

    python3 scripts/security/mixed_catalog.py 20000 > /tmp/mixed-20k.json
    target/release/toolpact check /tmp/mixed-20k.json --format json > /dev/null
"""
import glob, json, os, random, sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    random.seed(7)
    sentences = []
    for path in sorted(glob.glob(os.path.join(REPO, "fixtures/security/poisoned/*/*.json"))):
        with open(path, encoding="utf-8") as f:
            description = json.load(f)["tool"].get("description") or ""
        for sentence in description.replace("\n", " ").split(". "):
            sentence = sentence.strip()
            if 20 < len(sentence) < 300:
                sentences.append(sentence)
    tools = []
    for i in range(count):
        description = ". ".join(random.sample(sentences, random.randint(3, 6))) + "."
        tools.append({
            "name": f"tool_{i}",
            "description": description,
            "inputSchema": {"type": "object", "properties": {
                "q": {"type": "string", "description": random.choice(sentences)}}},
        })
    json.dump({"tools": tools}, sys.stdout)


if __name__ == "__main__":
    main()
