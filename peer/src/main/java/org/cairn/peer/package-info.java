/** The donor peer daemon (cairn-peer.jar): heartbeats, load monitor, donor policy; fragment store and data server to come. */
package org.cairn.peer;
