/**
 * Seeded synthetic process-memory images and their successors (and DMTCP-framed ones): reproducible inputs for tests,
 * the client's JIT warm-up and demo, and the benchmarks, when no real checkpoint image is at hand.
 */
package org.cairn.core.image;
