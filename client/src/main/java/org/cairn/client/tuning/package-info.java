/**
 * The client library's tuning knobs ({@link org.cairn.client.tuning.ClientTuning}): one validated record with its
 * defaults in one place, read from the {@code -Dcairn.*} properties benchmark scripts pass, and handed by the
 * {@link org.cairn.client.Grid} to the store, fetch and base-cache code instead of each reading properties itself.
 */
package org.cairn.client.tuning;
