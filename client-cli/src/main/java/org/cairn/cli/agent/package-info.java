/**
 * The thin client's wire to a resident {@code cairn agent} over a Unix domain socket: a request
 * (the command line, the client's working directory) and the command's output streamed back. Only
 * JDK classes, so a thin {@code cairn} process starts without Netty, Jackson or picocli.
 */
package org.cairn.cli.agent;
