/**
 * Where a version's pieces go: each live peer scored from the shared availability history (FALCON's CRLS),
 * cached per history slot, for stores and for repair.
 */
package org.cairn.tracker.placement;
