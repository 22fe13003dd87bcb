/** The peer's load monitor and state machine (FALCON §3.1, §5.2): RUNNING, FULL, LOADED, BUSY. */
package org.cairn.peer.load;
