package org.cairn.sim.net;

/** A tracker's answer to one call: its HTTP status, its body, and the nanoseconds from the request's write to the answer. */
public record Answer(int status, byte[] body, long wireNanos) {}
