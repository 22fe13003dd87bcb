/** Repair on the peer: runs the tracker's repair jobs (read m pieces, rebuild the lost ones, store them on their targets). */
package org.cairn.peer.repair;
