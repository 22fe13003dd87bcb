/** The tracker daemon: membership, history, metadata, placement (built by the Overlay issue). */
package org.cairn.tracker;
