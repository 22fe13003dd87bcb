#!/usr/bin/env python3
# Assembles the experiments' section of docs/benchmarks/journal.md (between the experiments:begin/end
# markers) from docs/benchmarks/NAME.md (written by it/testbed/experiment.sh NAME), the plots, and the
# verdicts in docs/benchmarks/verdicts.md ("@@ NAME" sections; the text before the first is the intro).
#   python3 it/testbed/assemble-benchmarks.py
import os
root=os.path.join(os.path.dirname(os.path.abspath(__file__)),'..','..','docs')
b=open(root+'/benchmarks/journal.md').read()
start='<!-- experiments:begin -->'; end='<!-- experiments:end -->'
sized=sorted(f[:-3] for f in os.listdir(root+'/benchmarks') if f.startswith('concurrency-') and f.endswith('mb.md'))
tau2v=sorted(f[:-3] for f in os.listdir(root+'/benchmarks') if f.startswith('tau2-') and f.endswith('.md') and '-delay' not in f)
order=['concurrency','concurrency-share']+sized+['sizes','failures','load','tau2']+tau2v+['retrieval','ablation','threads','stripe','chunksize','makespan-costs','makespan']
# runs with link delay (experiment.sh NAME --delay D) follow their experiment: NAME-delayD
delayed=lambda n: sorted(f[:-3] for f in os.listdir(root+'/benchmarks') if (f.startswith(n+'-delay') or f.startswith(n+'-ramdisks')) and f.endswith('.md'))
order=[m for n in order for m in [n]+delayed(n)]
verdicts=open(root+'/benchmarks/verdicts.md').read().split('\n@@ ')
V={}
intro=verdicts[0]
for v in verdicts[1:]:
    name,_,text=v.partition('\n')
    V[name.strip()]=text.strip()
out=[start,intro.strip(),'']
for n in order:
    f=f'{root}/benchmarks/{n}.md'
    if not os.path.exists(f): continue
    md=open(f).read().strip().replace('### ','#### ',1)
    out.append(md)
    for png in sorted(os.listdir(root+'/benchmarks')):
        if png.startswith(n) and png.endswith('.png') and (png[len(n)] in '.-') and not (n=='concurrency' and png.startswith('concurrency-')) and not (n=='makespan' and png.startswith('makespan-costs')) and ('-delay' in n or '-delay' not in png) and ('-ramdisks' in n or '-ramdisks' not in png) and not (n=='tau2' and png.startswith('tau2-')):
            out.append(f'\n![{png}]({png})')
    if n in V: out.append('\n'+V[n])
    out.append('')
out.append(end)
sec='\n'.join(out)
if start in b:
    b=b[:b.index(start)]+sec+b[b.index(end)+len(end):]
else:
    b=b.rstrip()+'\n\n## Emulated grid (#7): the seed papers\' experiments\n\n'+sec+'\n'
open(root+'/benchmarks/journal.md','w').write(b)
