import csv, glob, os, statistics as st, sys
sys.path.insert(0, 'tuning')
from stage_summary import stage_labels
o = sys.argv[1]
def load(f):
    return {(x['rows'], x['cols']): x for x in csv.DictReader(open(f)) if x['time_ms']} if os.path.exists(f) else {}
def cop(row, label):
    t = [float(x) for x in row['stages_ms'].split(';') if x]; l = stage_labels(row)
    if len(l) != len(t) or label not in l: return None
    c = 2 * int(row['rows']) * int(row['cols']) * int(row['elem']) / float(row['copy_gbs']) / 1e6
    return t[l.index(label)] / c
for n in ['g1', 's1']:
    base = load(f'{o}/{n}_base.csv')
    for f in sorted(glob.glob(f'{o}/{n}_*.csv')):
        name = os.path.basename(f)[len(n) + 1:-4]
        if name.startswith('v'):
            r = load(f); print(f'{n} {name}: verified {sum(x["verified"]=="yes" for x in r.values())}/{len(r)}'); continue
        r = load(f)
        if not r: print(n, name, 'none'); continue
        rat = [float(x['ratio']) for x in r.values()]
        sp = [float(base[k]['time_ms']) / float(x['time_ms']) for k, x in r.items() if k in base]
        pads = [c for c in (cop(x, 'pad') for x in r.values()) if c]
        unp = [c for c in (cop(x, 'unpad') for x in r.values()) if c]
        print(f'{n} {name:8s} n={len(r)} median {100*st.median(rat):5.1f} %  speed-up {st.median(sp):.3f} ({min(sp):.2f}-{max(sp):.2f})  pad {st.median(pads) if pads else 0:.2f} copies ({len(pads)})  unpad {st.median(unp) if unp else 0:.2f} ({len(unp)})')
