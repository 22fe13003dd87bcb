/** Recovery of a tracker's catalog from the catalog records the peers hold. */
package org.cairn.tracker.recovery;
