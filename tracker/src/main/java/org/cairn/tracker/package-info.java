/** The tracker daemon: membership, availability history, metadata, placement (cairn-tracker.jar). */
package org.cairn.tracker;
