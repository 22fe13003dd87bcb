/**
 * The store path: a checkpoint image in, a committed version out. {@link org.cairn.client.store.StoreSession} runs one
 * store in three phases, each a class of its own: {@link org.cairn.client.store.StorePlan} (placement, probes, the dedup
 * index), {@link org.cairn.client.store.StoreTransfer} (the core pipeline and the piece writers, with their executors)
 * and {@link org.cairn.client.store.StoreCommit} (the version's commit, its catalog record, the bandwidth report); what
 * it did is a {@link org.cairn.client.store.StoreOutcome}.
 */
package org.cairn.client.store;
