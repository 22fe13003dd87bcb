# For it/tools/dmtcp-series: a Python interpreter holding ~130 MB of objects, 20,000 changed per step.
import sys, random
random.seed(7)
objs = [{"id": i, "name": "particle-%d" % i, "pos": [random.random() for _ in range(3)], "hist": list(range(i % 17))}
        for i in range(300000)]
blob = [bytes(random.getrandbits(8) for _ in range(256)) for _ in range(20000)]
step = 0
while True:
    print("ready", step, flush=True)
    if not sys.stdin.readline():
        break
    for o in random.sample(objs, 20000):
        o["pos"][0] += 0.01
        o["hist"].append(step)
    step += 1
