/** The peer's side of membership: registration, heartbeats, graceful leave. */
package org.cairn.peer.heartbeat;
