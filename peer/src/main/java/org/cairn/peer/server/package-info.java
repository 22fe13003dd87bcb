/** The peer's data server: the binary protocol over Netty, authenticated by the grid token's HMAC. */
package org.cairn.peer.server;
