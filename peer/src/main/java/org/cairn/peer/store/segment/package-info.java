/**
 * The fragment store's bytes: append-only segment files ({@link org.cairn.peer.store.segment.SegmentLog})
 * written in batches with grouped syncs, with O_DIRECT where the file system allows it
 * ({@code DirectAppender}; {@code SegmentAppends} chooses between it and the page cache). Knows
 * nothing of fragments, keys or the index: the store above ({@link org.cairn.peer.store}) decides
 * which ranges are live and when a segment is deleted.
 */
package org.cairn.peer.store.segment;
