/** The tracker's RocksDB store: one class owning every native handle, column family per concern. */
package org.cairn.tracker.store;
