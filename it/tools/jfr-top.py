#!/usr/bin/env python3
"""Where a set of JFR recordings' CPU samples went: shares by what the sampled (top) frame is, by thread, and the
share of samples with a given frame anywhere on the stack. For the repair profiles of docs/benchmarks/journal.md
("Repair profiled", "Repair under C2"), made with RepairBenchmarkIT's -Dcairn.bench.repair.jfr=DIR:

    it/tools/jfr-top.py DIR/*-b*.jfr          # the peers
    it/tools/jfr-top.py DIR/*-tracker.jfr     # the tracker

Reads the recordings with the JDK's `jfr print` (JAVA_HOME/bin/jfr, else jfr on the PATH); prints to stdout.
"""
import collections
import os
import re
import subprocess
import sys

# (share's name, regex on the top frame's "package.Class.method"), first match wins
SELF = [
    ("Reed-Solomon coding (core erasure)", r"^org\.cairn\.core\.erasure\."),
    ("CRC32C", r"^java\.util\.zip\.CRC32C|^jdk\.internal\.util\.crc|CRC32C"),
    ("SHA-256", r"^sun\.security\.provider\.(SHA|DigestBase)"),
    ("AES-GCM", r"^com\.sun\.crypto\.provider\.(GaloisCounterMode|GHASH|AESCrypt|CounterMode|GCTR)"),
    ("TLS, the rest of the SSL engine", r"^(sun\.security\.ssl\.|io\.netty\.handler\.ssl\.|io\.netty\.internal\.tcnative\.|javax\.net\.ssl\.)"),
    ("Netty I/O", r"^io\.netty\."),
    ("Jackson", r"^com\.fasterxml\."),
    ("HTTP client (JDK)", r"^(jdk\.internal\.net\.http|java\.net\.http)\."),
    ("RocksDB (Java side)", r"^org\.rocksdb\."),
    ("array copies and compares", r"^(java\.util\.Arrays\.|java\.lang\.System\.arraycopy|jdk\.internal\.util\.ArraysSupport)"),
    ("socket and file I/O (JDK)", r"^(sun\.nio\.|java\.nio\.|sun\.net\.|java\.net\.|java\.io\.)"),
    ("other Cairn code", r"^org\.cairn\."),
    ("the JDK's other classes", r"^(java|javax|jdk|sun|com\.sun)\."),
]
# frames whose presence anywhere on a sample's stack is counted (inclusive shares)
ON_STACK = [
    "org.cairn.peer.repair.SourceCheck.verified",
    "org.cairn.core.pipeline.ChunkDecoder.rebuild",
    "org.cairn.core.erasure.CodingLoop.code",
    "org.cairn.core.fragment.Fragment.create",
    "org.cairn.peer.repair.ChunkRebuild.run",
    "org.cairn.peer.repair.TargetWrites",
    "org.cairn.core.read.ChunkRead",
    "org.cairn.peer.heartbeat",
    "org.cairn.peer.server",
    "org.cairn.peer.store",
]

FRAME = re.compile(r"^\s+([\w$.<>]+)\(")


def jfr_binary():
    home = os.environ.get("JAVA_HOME")
    return os.path.join(home, "bin", "jfr") if home else "jfr"


def samples(path):
    """Yields (thread name, [frames top first]) for each jdk.ExecutionSample in the recording."""
    out = subprocess.run([jfr_binary(), "print", "--stack-depth", "96", "--events", "jdk.ExecutionSample", path],
                         check=True, capture_output=True, text=True).stdout
    thread, frames, in_stack = None, [], False
    for line in out.splitlines():
        s = line.strip()
        if s.startswith("sampledThread ="):
            m = re.search(r'"([^"]*)"', s)
            thread = m.group(1) if m else "?"
        elif s.startswith("stackTrace = ["):
            frames, in_stack = [], True
        elif in_stack and s == "]":
            in_stack = False
            yield thread, frames
        elif in_stack:
            m = FRAME.match(line)
            if m:
                frames.append(m.group(1))


def category(top):
    for name, rx in SELF:
        if re.search(rx, top):
            return name
    return "other"


def table(title, counts, total, limit=None):
    print(f"\n{title} ({total} samples)")
    for key, n in counts.most_common(limit):
        print(f"  {100.0 * n / total:5.1f} %  {n:6d}  {key}")


def main(paths):
    if not paths:
        sys.exit(__doc__)
    by_self, by_method, by_thread, on_stack = (collections.Counter() for _ in range(4))
    total = 0
    for path in paths:
        n = 0
        for thread, frames in samples(path):
            if not frames:
                continue
            n += 1
            by_self[category(frames[0])] += 1
            by_method[frames[0]] += 1
            by_thread[re.sub(r"\d+", "N", thread)] += 1
            for f in ON_STACK:
                if any(fr.startswith(f) for fr in frames):
                    on_stack[f] += 1
        print(f"{path}: {n} samples")
        total += n
    if total == 0:
        sys.exit("no execution samples")
    table("by the sampled frame", by_self, total)
    table("on the stack anywhere (inclusive)", on_stack, total)
    table("by thread (digits as N)", by_thread, total, 15)
    table("hottest sampled methods", by_method, total, 25)


if __name__ == "__main__":
    main(sys.argv[1:])
