#!/usr/bin/env python3
"""A user-space delay line between two tap devices, for kernels without netem (issue #7).

grid.sh uses it when `up --delay D` is asked for and the kernel has no netem qdisc: each host's link
is then a pair of persistent tap devices (one in the host's namespace, one on the hub's bridge)
instead of a veth pair, and this process carries the frames between them, holding each one for the
delay in each direction. tc still shapes the taps (tbf rate, random loss), as it shaped the veths.

    delayline.py --a NS:DEV --b NS:DEV --delay-ms D [--limit PACKETS]

The taps carry virtio-net headers with TCP segmentation offload, so a 64 KB GSO frame crosses as
one read and one write (as between QEMU and its tap), and a 1 Gbit/s link needs a few thousand frames
per second, not 80,000. Frames are released in arrival order when their time is due; the timer's
resolution is the event loop's (about 1 ms). A direction holding more than --limit frames drops new
ones, as netem does at its limit (default 10000; netem's default is 1000). SIGTERM/SIGINT stop it.
"""
import argparse
import collections
import ctypes
import fcntl
import os
import select
import signal
import struct
import sys
import time

TUNSETIFF = 0x400454CA
TUNSETOFFLOAD = 0x400454D0
IFF_TAP = 0x0002
IFF_NO_PI = 0x1000
IFF_VNET_HDR = 0x4000
TUN_F_CSUM, TUN_F_TSO4, TUN_F_TSO6, TUN_F_TSO_ECN = 0x01, 0x02, 0x04, 0x08
CLONE_NEWNET = 0x40000000
FRAME = 65536 + 64  # the largest GSO frame plus its virtio-net header

libc = ctypes.CDLL(None, use_errno=True)


def setns(fd):
    if libc.setns(fd, CLONE_NEWNET) != 0:
        err = ctypes.get_errno()
        raise OSError(err, "setns: " + os.strerror(err))


def attach(spec):
    """Opens the tap device NS:DEV (NS a name under /run/netns, or empty for this namespace)."""
    ns, _, dev = spec.rpartition(":")
    home = os.open("/proc/self/ns/net", os.O_RDONLY)
    try:
        if ns:
            target = os.open("/run/netns/" + ns, os.O_RDONLY)
            try:
                setns(target)
            finally:
                os.close(target)
        fd = os.open("/dev/net/tun", os.O_RDWR | os.O_NONBLOCK)
        try:
            fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", dev.encode(), IFF_TAP | IFF_NO_PI | IFF_VNET_HDR))
            fcntl.ioctl(fd, TUNSETOFFLOAD, TUN_F_CSUM | TUN_F_TSO4 | TUN_F_TSO6 | TUN_F_TSO_ECN)
        except OSError as e:
            os.close(fd)
            raise OSError(e.errno, "%s: cannot attach to tap %s: %s" % (spec, dev, e.strerror)) from None
        return fd
    finally:
        setns(home)
        os.close(home)


def main():
    p = argparse.ArgumentParser(description="Carry frames between two tap devices, delaying each direction.")
    p.add_argument("--a", required=True, help="NS:DEV, one end (a tap device in network namespace NS)")
    p.add_argument("--b", required=True, help="NS:DEV, the other end")
    p.add_argument("--delay-ms", type=float, required=True, help="delay added in each direction, in ms")
    p.add_argument("--limit", type=int, default=10000, help="frames held per direction before new ones are dropped")
    args = p.parse_args()
    if args.delay_ms < 0 or args.limit < 1:
        p.error("--delay-ms must be >= 0 and --limit >= 1")
    a, b = attach(args.a), attach(args.b)
    delay = args.delay_ms / 1000.0
    other = {a: b, b: a}
    held = {a: collections.deque(), b: collections.deque()}  # frames read from the key, due at time t
    dropped = {a: 0, b: 0}
    ep = select.epoll()
    ep.register(a, select.EPOLLIN)
    ep.register(b, select.EPOLLIN)
    running = [True]

    def stop(*_):
        running[0] = False

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print("delayline: %s <-> %s, %.3g ms each way" % (args.a, args.b, args.delay_ms), flush=True)
    while running[0]:
        now = time.monotonic()
        due = [q[0][0] for q in held.values() if q]
        timeout = max(0.0, min(due) - now) if due else 1.0
        try:
            events = ep.poll(timeout)
        except InterruptedError:
            continue
        now = time.monotonic()
        for fd, _ in events:
            q = held[fd]
            for _ in range(256):  # a batch, then the writes get their turn
                try:
                    frame = os.read(fd, FRAME)
                except BlockingIOError:
                    break
                if len(q) >= args.limit:
                    dropped[fd] += 1
                else:
                    q.append((now + delay, frame))
        now = time.monotonic()
        for src, q in held.items():
            dst = other[src]
            while q and q[0][0] <= now:
                try:
                    os.write(dst, q[0][1])
                except BlockingIOError:
                    break  # the device's queue is full: try again on the next turn
                except OSError:
                    pass  # the device went down (its namespace is being deleted): the frame is lost
                q.popleft()
    print("delayline: stopped (dropped at the limit: %d / %d)" % (dropped[a], dropped[b]), flush=True)


if __name__ == "__main__":
    try:
        main()
    except OSError as e:
        print("delayline: %s" % e, file=sys.stderr)
        sys.exit(1)
