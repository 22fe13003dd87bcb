/** The store path: a checkpoint image in, a committed version out. {@link org.cairn.client.store.Storer} plans (placement, probes, dedup), transfers (the pipeline and the piece writers) and commits (the version, the catalog copy, the traffic report). */
package org.cairn.client.store;
