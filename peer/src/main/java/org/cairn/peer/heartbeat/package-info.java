/** The peer's heartbeat timing: beats at a fixed rate, at the interval the tracker asks for. */
package org.cairn.peer.heartbeat;
