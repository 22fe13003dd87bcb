/** Recovery of a tracker's catalog from the catalog records the peers hold (issue #21). */
package org.cairn.tracker.recovery;
