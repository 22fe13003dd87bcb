/**
 * The client library: store, fetch and verify checkpoints on a grid (its tracker group's API and its donors' data
 * plane). {@link org.cairn.client.Grid} is the front door; the store path is in {@code store}, the read path in
 * {@code fetch}, the delta-base cache in {@code bases}, app keys in {@code keys}, the file-system face in
 * {@code mount}, DMTCP checkpoint directories in {@code dmtcp}.
 */
package org.cairn.client;
