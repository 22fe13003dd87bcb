/**
 * The fragment store's index ({@link org.cairn.peer.store.index.FragmentIndex}): fragment key to
 * {@link org.cairn.peer.store.segment.SegmentLog.Location} in RocksDB, changed in synced batches
 * ({@link org.cairn.peer.store.index.IndexChanges}) after the bytes they point at are durable; the
 * RocksDB options and column families ({@code IndexOptions}); the conversion of a format-2 store,
 * which kept the bytes in RocksDB, into the segment log ({@code Format2Conversion}).
 */
package org.cairn.peer.store.index;
