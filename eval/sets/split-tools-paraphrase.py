#!/usr/bin/env python3
"""Split eval/sets/tools-paraphrase.jsonl once into a tuning half and a check half.

Rule (the same as for the spatial check set): group the requests by (lang, multi-step or not),
order each group by sha256(id) and put every other one (positions 0, 2, 4, ...) in the tuning half.
"""
import hashlib
import json
import sys

src = sys.argv[1] if len(sys.argv) > 1 else 'eval/sets/tools-paraphrase.jsonl'
items = [json.loads(l) for l in open(src, encoding='utf-8') if l.strip()]
groups = {}
for it in items:
    groups.setdefault((it['lang'], 'gold_chain' in it), []).append(it['id'])
tuning = set()
for ids in groups.values():
    ids.sort(key=lambda i: hashlib.sha256(i.encode()).hexdigest())
    tuning.update(ids[0::2])
base = src[:-len('.jsonl')]
for name, keep in (('tuning', True), ('check', False)):
    with open(f'{base}.{name}.jsonl', 'w', encoding='utf-8') as f:
        for it in items:
            if (it['id'] in tuning) == keep:
                f.write(json.dumps(it, ensure_ascii=False) + '\n')
