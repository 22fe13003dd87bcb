# For it/tools/criu-series: a Python interpreter's working set dumped by CRIU between steps (the first dump is 234 MB):
# 300,000 particle dicts (name, position list, a short history), an array of 4M doubles (32 MB) and 20,000 byte
# blobs of 256 bytes. Each step (on SIGUSR1) changes 2 % of the particles (a position and a history append), a moving
# band of 2 % of the array, adds 8,000 particles and deletes 4,000 (growth and freed objects), then prints "ready N".
# With a FILE argument a thread appends the wall clock (seconds, 6 decimals) to FILE every 10 ms: the largest gap while
# a dump runs is how long the process was frozen. Seeded: the same run every time.
import array, os, random, signal, sys, threading, time

def ticker(path):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    while True:
        os.write(fd, b"%.6f\n" % time.time())
        time.sleep(0.01)

signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})  # before the ticker starts: it inherits the mask
if len(sys.argv) > 1:
    threading.Thread(target=ticker, args=(sys.argv[1],), daemon=True).start()
rng = random.Random(7)
def particle(i):
    return {"id": i, "name": "particle-%d" % i, "pos": [rng.random() for _ in range(3)], "hist": list(range(i % 17))}
objs = [particle(i) for i in range(300000)]
field = array.array("d", (300.0 + rng.random() for _ in range(4 << 20)))
blob = [rng.randbytes(256) for _ in range(20000)]
next_id = len(objs)
step = 0
while True:
    print("ready", step, flush=True)
    signal.sigwait({signal.SIGUSR1})
    for o in rng.sample(objs, len(objs) // 50):
        o["pos"][0] += 0.01
        o["hist"].append(step)
    band = len(field) // 50
    b0 = step * band % (len(field) - band)
    for i in range(b0, b0 + band):
        field[i] = field[i] * 0.999 + 0.3
    objs.extend(particle(next_id + i) for i in range(8000))
    next_id += 8000
    drop = set(rng.sample(range(len(objs)), 4000))
    objs = [o for i, o in enumerate(objs) if i not in drop]
    step += 1
