/**
 * {@code cairn agent}: the resident process a job's commands are handed to ({@link org.cairn.cli.agent.Agent}, its
 * composition root), its socket server, its background stores, its lock and socket, and how a command starts one
 * when none runs. The wire a thin client speaks to it is in {@code agent.wire}.
 */
package org.cairn.cli.agent;
