/** The peer's fragment store: RocksDB with blob files, every fragment verified on write and on read. */
package org.cairn.peer.store;
