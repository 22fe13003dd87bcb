/** What leaves a peer and what it reports missing: inventory garbage collection, the audit, bad-fragment reports. */
package org.cairn.peer.gc;
