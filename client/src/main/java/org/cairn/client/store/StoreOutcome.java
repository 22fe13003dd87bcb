package org.cairn.client.store;

import java.util.List;
import org.cairn.core.api.catalog.CommitRequest;

/**
 * What a store did (what {@code cairn store} prints). A part of a checkpoint set has {@code set} (the commit's answer:
 * its set, parts and parts committed so far); its {@code step} is 0 until the set's last part commits.
 * {@code sentBytes}: the version's data pieces sent; {@code recordBytes}: the pieces of its catalog record, 0 if none
 * was stored, -1 if it is being stored after the store returned. {@code hosts}: the slots' hosts at the end;
 * {@code replaced}: "old -> new (why)" for each host replaced; {@code probed}: "id bytes/s" for each host probed.
 */
public record StoreOutcome(String app, String node, long step, long size, long chunks, long newChunks, long sentBytes,
    double seconds, List<String> hosts, List<String> replaced, List<String> probed, CommitRequest.Answer set, long newBytes,
    long compressedBytes, long recordBytes) {}
